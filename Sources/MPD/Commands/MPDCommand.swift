/// One command of the table: who may send it (MPD's permission), how many arguments it takes
/// (checked before the handler runs, with MPD's messages), and the handler.
///
/// A handler reads the call's arguments and the server's state (`MPDCall.context`), changes the
/// connection's own state (`MPDCall.session`), writes its answer into `MPDCall.response`, or
/// throws an `MPDError` (any other error becomes `ACK [52@n]`, MPD's system error).
package struct MPDCommand: Sendable {
    package typealias Handler = @Sendable (inout MPDCall) async throws -> Void

    package var permission: MPDPermission
    package var minArguments: Int
    /// nil: any number.
    package var maxArguments: Int?
    package var handler: Handler
    /// Whether `commands` lists it: MPD leaves out the commands of a feature it was not
    /// configured with (`sticker` without a sticker file, `listneighbors` without a neighbour
    /// plugin), and clients take the list as what they may use (Cantata sends `sticker` for
    /// ratings when it is listed, and shows each error).
    package var isListed = true

    package init(_ permission: MPDPermission, arguments: ClosedRange<Int> = 0...0, _ handler: @escaping Handler) {
        self.permission = permission
        minArguments = arguments.lowerBound
        maxArguments = arguments.upperBound
        self.handler = handler
    }

    /// A command taking at least `minArguments`, with no upper bound.
    package init(_ permission: MPDPermission, atLeast minArguments: Int, _ handler: @escaping Handler) {
        self.permission = permission
        self.minArguments = minArguments
        maxArguments = nil
        self.handler = handler
    }

    /// The command, left out of `commands`' list.
    package var unlisted: MPDCommand {
        var command = self
        command.isListed = false
        return command
    }

    /// The argument count's check, as MPD's `command_check_request`.
    package func checkArguments(_ count: Int, name: String) throws(MPDError) {
        if let maxArguments, minArguments == maxArguments, count != maxArguments { throw .wrongArgumentCount(name) }
        if count < minArguments { throw .tooFewArguments(name) }
        if let maxArguments, count > maxArguments { throw .tooManyArguments(name) }
    }
}

/// A family of commands (one file of Commands/ each): the table merges the families' commands.
package protocol MPDCommandFamily {
    static var commands: [String: MPDCommand] { get }
}

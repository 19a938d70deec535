/// An MPD error answer: `ACK [code@index] {command} message`, as MPD's protocol documentation
/// gives it. Handlers throw it; the connection writes it, ends a command list there, and goes on
/// with the next line (or closes, for what MPD closes on).
package struct MPDError: Error, Sendable, Equatable {
    /// The codes of MPD's `enum ack` (src/protocol/Ack.hxx).
    package enum Code: Int, Sendable {
        case notList = 1
        case argument = 2
        case password = 3
        case permission = 4
        case unknown = 5
        case noExist = 50
        case playlistMax = 51
        case system = 52
        case playlistLoad = 53
        case updateAlready = 54
        case playerSync = 55
        case exist = 56
    }

    package var code: Code
    package var message: String

    package init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The answer's line: `index` is the command's place in a command list (0 outside one),
    /// `command` its name ("" when the line had none MPD could read). A newline in the message
    /// would end the answer early, so it becomes a space.
    package func ack(index: Int, command: String) -> String {
        let text = message.replacing("\n", with: " ").replacing("\r", with: " ")
        return "ACK [\(code.rawValue)@\(index)] {\(command)} \(text)\n"
    }

    // MARK: MPD's own messages

    package static func unknownCommand(_ name: String) -> MPDError {
        MPDError(.unknown, "unknown command \"\(name.prefix(64))\"")
    }

    package static func permission(_ name: String) -> MPDError {
        MPDError(.permission, "you don't have permission for \"\(name)\"")
    }

    package static func wrongArgumentCount(_ name: String) -> MPDError {
        MPDError(.argument, "wrong number of arguments for \"\(name)\"")
    }

    package static func tooFewArguments(_ name: String) -> MPDError {
        MPDError(.argument, "too few arguments for \"\(name)\"")
    }

    package static func tooManyArguments(_ name: String) -> MPDError {
        MPDError(.argument, "too many arguments for \"\(name)\"")
    }

    package static let noSuchSong = MPDError(.noExist, "No such song")
    package static let badSongIndex = MPDError(.argument, "Bad song index")
    package static let notPlaying = MPDError(.playerSync, "Not playing")
}

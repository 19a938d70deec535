/// A D-Bus error reply to a method call: its error name and message. A method or property write
/// of ours throws it to refuse with that name.
package struct BusCallError: Error, CustomStringConvertible, Equatable {
    package var name: String
    package var message: String

    package init(name: String, message: String) {
        self.name = name
        self.message = message
    }

    package var description: String { message }

    /// Arguments a method cannot take, or a value a property cannot.
    package static func invalidArguments(_ message: String) -> BusCallError {
        BusCallError(name: "org.freedesktop.DBus.Error.InvalidArgs", message: message)
    }

    /// Any other error: it failed, and says why.
    package static func failed(_ error: any Error) -> BusCallError {
        error as? BusCallError ?? BusCallError(name: "org.freedesktop.DBus.Error.Failed", message: "\(error)")
    }
}

/// A D-Bus error reply to a method call: its error name and message.
package struct BusCallError: Error, CustomStringConvertible, Equatable {
    package var name: String
    package var message: String

    package init(name: String, message: String) {
        self.name = name
        self.message = message
    }

    package var description: String { message }

    /// Arguments a method cannot take.
    package static let invalidArguments = BusCallError(name: "org.freedesktop.DBus.Error.InvalidArgs", message: "invalid arguments")
}

/// A D-Bus error reply to a method call: its error name and message.
public struct BusCallError: Error, CustomStringConvertible, Equatable {
    public var name: String
    public var message: String

    public init(name: String, message: String) {
        self.name = name
        self.message = message
    }

    public var description: String { message }
}

/// A Manager1 call refused: its error name (after `org.cloudplayerd.Error.`) and message.
/// (A refused queue request is a `QueueRefusal`, the same through MPRIS.)
struct ManagerError: Error {
    var name: String
    var message: String

    static func invalid(_ message: String) -> ManagerError {
        ManagerError(name: "InvalidArgs", message: message)
    }
}

extension String {
    /// nil for an empty string: an empty D-Bus argument means "not given".
    var nonEmpty: String? { isEmpty ? nil : self }
}

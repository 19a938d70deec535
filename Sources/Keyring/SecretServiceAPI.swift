import DBus

/// The names of the freedesktop Secret Service API
/// (https://specifications.freedesktop.org/secret-service/latest/): the service, its
/// interfaces, and the values its methods take.
enum SecretServiceAPI {
    static let busName = "org.freedesktop.secrets"
    static let path = "/org/freedesktop/secrets"
    static let service = "org.freedesktop.Secret.Service"
    static let collection = "org.freedesktop.Secret.Collection"
    static let prompt = "org.freedesktop.Secret.Prompt"
    /// What a method answers for "no prompt needed" or "no such collection".
    static let none = "/"
    static let itemLabel = "org.freedesktop.Secret.Item.Label"
    static let itemAttributes = "org.freedesktop.Secret.Item.Attributes"
    /// The error of a call on a locked collection or item.
    static let isLocked = "org.freedesktop.Secret.Error.IsLocked"

    /// Lookup attributes as the API takes them: `a{ss}`.
    static func attributes(_ attributes: [String: String]) -> BusValue {
        .dictionary(key: "s", value: "s", attributes.sorted { $0.key < $1.key }.map { (.string($0.key), .string($0.value)) })
    }

    /// A `Secret` struct, `(oayays)`: the session, no parameters (the plain algorithm), the bytes
    /// and their content type.
    static func secret(_ bytes: [UInt8], session: String) -> BusValue {
        .structure([.objectPath(session), .array(element: "y", []), .array(element: "y", bytes.map(BusValue.byte)), .string("text/plain")])
    }

    /// The bytes of a `Secret` struct as `GetSecrets` answers it; nil if it is not one.
    static func bytes(of secret: BusValue) -> [UInt8]? {
        let fields = secret.elements
        guard fields.count == 4, case .array(_, let values) = fields[2] else { return nil }
        var bytes: [UInt8] = []
        for value in values {
            guard case .byte(let byte) = value else { return nil }
            bytes.append(byte)
        }
        return bytes
    }

    /// The object paths of an `ao`.
    static func paths(_ value: BusValue?) -> [String] {
        value?.elements.compactMap(\.text) ?? []
    }
}

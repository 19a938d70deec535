import Base

/// A struct that travels as `a{sv}`: each stored property an entry, named in snake_case
/// (`queueLength` → `queue_length`), its D-Bus type that of the property (`Int64` → `x`,
/// `[String]` → `as`, a nested record → `a{sv}`), a nil optional left out. Declared once, with
/// `Codable`, the shape is the same for the daemon that answers and the client that reads.
package protocol BusRecord: BusType, Codable {}

extension BusRecord {
    package static var busSignature: String { "a{sv}" }

    package init?(busValue: BusValue) {
        guard case .record(let entries) = busValue,
              let value = try? Self(from: BusRecordDecoder(entries: entries)) else { return nil }
        self = value
    }

    package var busValue: BusValue {
        let encoder = BusRecordEncoder()
        // Every stored property is a BusType or an optional one (the coder refuses anything
        // else), so encoding a record cannot fail: a refusal is a record declared wrong.
        do {
            try encode(to: encoder)
        } catch {
            preconditionFailure("\(Self.self) has a property that is not a D-Bus type: \(error)")
        }
        return .record(encoder.entries.entries)
    }
}

/// `camelCase` property names as the `snake_case` keys records use on the bus.
enum BusRecordKey {
    /// Each Swift name converted once: a listing encodes and decodes the same few keys for each of
    /// up to 100 000 records.
    private static let converted = Locked<[String: String]>([:])

    static func name(_ key: some CodingKey) -> String {
        let swiftName = key.stringValue
        return converted.withLock { converted in
            if let name = converted[swiftName] { return name }
            var name = ""
            for character in swiftName {
                if character.isUppercase {
                    name += "_" + character.lowercased()
                } else {
                    name.append(character)
                }
            }
            converted[swiftName] = name
            return name
        }
    }
}

/// Collects a record's entries (a class: the containers the encoder hands out share it).
final class BusRecordEntries {
    var entries: [(String, BusValue)] = []
}

/// Encodes a `BusRecord`: a keyed container of `BusType` values.
struct BusRecordEncoder: Encoder {
    let entries = BusRecordEntries()
    var codingPath: [any CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(Container(entries: entries))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        Unsupported(codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        Unsupported(codingPath: codingPath)
    }

    private struct Container<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let entries: BusRecordEntries
        var codingPath: [any CodingKey] = []

        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            guard let value = value as? any BusType else {
                throw EncodingError.invalidValue(value, .init(codingPath: [key], debugDescription: "\(T.self) is not a D-Bus type"))
            }
            entries.entries.append((BusRecordKey.name(key), value.busValue))
        }

        mutating func encodeNil(forKey key: Key) throws {}

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type,
                                                            forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
            KeyedEncodingContainer(Container<NestedKey>(entries: BusRecordEntries()))
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            Unsupported(codingPath: codingPath + [key])
        }

        mutating func superEncoder() -> any Encoder { BusRecordEncoder() }
        mutating func superEncoder(forKey key: Key) -> any Encoder { BusRecordEncoder() }
    }

    /// What a record cannot hold: refused when something is encoded into it.
    private struct Unsupported: UnkeyedEncodingContainer, SingleValueEncodingContainer {
        var codingPath: [any CodingKey]
        var count: Int { 0 }

        private func refuse(_ value: Any) throws -> Never {
            throw EncodingError.invalidValue(value, .init(codingPath: codingPath, debugDescription: "a record holds named D-Bus values only"))
        }

        mutating func encodeNil() throws { try refuse(()) }
        mutating func encode<T: Encodable>(_ value: T) throws { try refuse(value) }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
            KeyedEncodingContainer(Container<NestedKey>(entries: BusRecordEntries()))
        }
        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { self }
        mutating func superEncoder() -> any Encoder { BusRecordEncoder() }
    }
}

/// Decodes a `BusRecord` from the entries of an `a{sv}`.
struct BusRecordDecoder: Decoder {
    let entries: [(String, BusValue)]
    var codingPath: [any CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(Container(entries: Dictionary(entries, uniquingKeysWith: { first, _ in first })))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw DecodingError.typeMismatch([Any].self, .init(codingPath: codingPath, debugDescription: "a record is a{sv}"))
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        throw DecodingError.typeMismatch(Any.self, .init(codingPath: codingPath, debugDescription: "a record is a{sv}"))
    }

    private struct Container<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let entries: [String: BusValue]
        var codingPath: [any CodingKey] = []
        var allKeys: [Key] { [] }

        func contains(_ key: Key) -> Bool { entries[BusRecordKey.name(key)] != nil }
        func decodeNil(forKey key: Key) throws -> Bool { !contains(key) }

        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            guard let value = entries[BusRecordKey.name(key)] else {
                throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "no \(BusRecordKey.name(key))"))
            }
            guard let busType = T.self as? any BusType.Type, let decoded = busType.init(busValue: value) as? T else {
                throw DecodingError.typeMismatch(T.self, .init(codingPath: [key], debugDescription: "\(value.signature) is not \(T.self)"))
            }
            return decoded
        }

        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
            throw DecodingError.typeMismatch(type, .init(codingPath: [key], debugDescription: "nested containers are records"))
        }

        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            throw DecodingError.typeMismatch([Any].self, .init(codingPath: [key], debugDescription: "arrays are D-Bus arrays"))
        }

        func superDecoder() throws -> any Decoder { BusRecordDecoder(entries: []) }
        func superDecoder(forKey key: Key) throws -> any Decoder { BusRecordDecoder(entries: []) }
    }
}

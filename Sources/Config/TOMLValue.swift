/// A value from a TOML document, with the line it was written on, so a configuration error can
/// say where to look.
package indirect enum TOMLValue: Sendable, Equatable {
    case string(String, line: Int)
    case integer(Int64, line: Int)
    case float(Double, line: Int)
    case boolean(Bool, line: Int)
    case array([TOMLValue], line: Int)
    case table(TOMLTable, line: Int)

    package var line: Int {
        switch self {
        case .string(_, let line), .integer(_, let line), .float(_, let line), .boolean(_, let line),
             .array(_, let line), .table(_, let line): line
        }
    }

    /// What the value is, in words, for "expected a string, found an integer".
    package var kind: String {
        switch self {
        case .string: "a string"
        case .integer: "an integer"
        case .float: "a number"
        case .boolean: "a boolean"
        case .array: "an array"
        case .table: "a table"
        }
    }
}

/// A TOML table: keys in the order they were written.
package struct TOMLTable: Sendable, Equatable {
    package private(set) var entries: [(key: String, value: TOMLValue)] = []

    package init() {}

    package subscript(key: String) -> TOMLValue? {
        entries.first { $0.key == key }?.value
    }

    package var keys: [String] { entries.map(\.key) }

    /// Sets `key`; false if it is already defined (TOML forbids redefinition).
    mutating func define(_ key: String, _ value: TOMLValue) -> Bool {
        guard self[key] == nil else { return false }
        entries.append((key: key, value: value))
        return true
    }

    /// Replaces the value of an existing key (used while a table or an array of tables grows).
    mutating func replace(_ key: String, _ value: TOMLValue) {
        guard let index = entries.firstIndex(where: { $0.key == key }) else { return }
        entries[index].value = value
    }

    package static func == (lhs: TOMLTable, rhs: TOMLTable) -> Bool {
        lhs.entries.count == rhs.entries.count
            && zip(lhs.entries, rhs.entries).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }
}

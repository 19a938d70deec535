/// A value as SQLite stores it: one of its five storage classes.
package enum SQLiteValue: Sendable, Equatable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])

    /// The storage class's name, for errors.
    var kind: String {
        switch self {
        case .null: "NULL"
        case .integer: "an integer"
        case .real: "a real"
        case .text: "text"
        case .blob: "a blob"
        }
    }
}

/// A Swift type kept in one column: the value it is written as, and how a stored value is read
/// back. A value of another storage class is an error (`SQLITE_MISMATCH`), never a silent zero —
/// but for an integer read as a `Double`, which SQLite itself stores that way in REAL columns.
package protocol SQLiteConvertible {
    var sqliteValue: SQLiteValue { get }
    init(sqliteValue: SQLiteValue) throws(SQLiteError)
}

extension SQLiteValue: SQLiteConvertible {
    package var sqliteValue: SQLiteValue { self }
    package init(sqliteValue: SQLiteValue) { self = sqliteValue }
}

extension Int64: SQLiteConvertible {
    package var sqliteValue: SQLiteValue { .integer(self) }
    package init(sqliteValue: SQLiteValue) throws(SQLiteError) {
        guard case .integer(let value) = sqliteValue else { throw .mismatch(sqliteValue, expected: "an integer") }
        self = value
    }
}

extension Int: SQLiteConvertible {
    package var sqliteValue: SQLiteValue { .integer(Int64(self)) }
    package init(sqliteValue: SQLiteValue) throws(SQLiteError) {
        self = Int(try Int64(sqliteValue: sqliteValue))
    }
}

extension Double: SQLiteConvertible {
    package var sqliteValue: SQLiteValue { .real(self) }
    package init(sqliteValue: SQLiteValue) throws(SQLiteError) {
        switch sqliteValue {
        case .real(let value): self = value
        case .integer(let value): self = Double(value)
        default: throw .mismatch(sqliteValue, expected: "a real")
        }
    }
}

/// Stored as 0 and 1, as SQLite has no boolean class.
extension Bool: SQLiteConvertible {
    package var sqliteValue: SQLiteValue { .integer(self ? 1 : 0) }
    package init(sqliteValue: SQLiteValue) throws(SQLiteError) {
        self = try Int64(sqliteValue: sqliteValue) != 0
    }
}

extension String: SQLiteConvertible {
    package var sqliteValue: SQLiteValue { .text(self) }
    package init(sqliteValue: SQLiteValue) throws(SQLiteError) {
        guard case .text(let value) = sqliteValue else { throw .mismatch(sqliteValue, expected: "text") }
        self = value
    }
}

extension [UInt8]: SQLiteConvertible {
    package var sqliteValue: SQLiteValue { .blob(self) }
    package init(sqliteValue: SQLiteValue) throws(SQLiteError) {
        guard case .blob(let value) = sqliteValue else { throw .mismatch(sqliteValue, expected: "a blob") }
        self = value
    }
}

/// nil is NULL.
extension Optional: SQLiteConvertible where Wrapped: SQLiteConvertible {
    package var sqliteValue: SQLiteValue { self?.sqliteValue ?? .null }
    package init(sqliteValue: SQLiteValue) throws(SQLiteError) {
        self = sqliteValue == .null ? nil : try Wrapped(sqliteValue: sqliteValue)
    }
}

/// Stored as its raw value: an enum's cases are kept as their names or numbers.
extension RawRepresentable where RawValue: SQLiteConvertible {
    package var sqliteValue: SQLiteValue { rawValue.sqliteValue }
    package init(sqliteValue: SQLiteValue) throws(SQLiteError) {
        guard let value = Self(rawValue: try RawValue(sqliteValue: sqliteValue)) else {
            throw .mismatch(sqliteValue, expected: "a \(Self.self)")
        }
        self = value
    }
}

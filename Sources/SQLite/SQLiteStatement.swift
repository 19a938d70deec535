import CSQLite

/// One prepared statement. `SQLiteConnection` prepares it once and keeps it for the next call
/// with the same SQL; it is finalized when the last reference to it goes.
final class SQLiteStatement {
    let handle: OpaquePointer
    /// The connection's `sqlite3` (which outlives its statements: it is closed with
    /// `sqlite3_close_v2`), for the errors' messages.
    private let connection: OpaquePointer
    private var columnIndexes: [String: Int32]?
    /// Bound and being stepped: a second use meanwhile (a query inside another's rows) gets a
    /// statement of its own.
    var inUse = false

    init(_ sql: String, connection: OpaquePointer) throws(SQLiteError) {
        var handle: OpaquePointer?
        let code = sqlite3_prepare_v3(connection, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &handle, nil)
        guard code == SQLITE_OK else { throw SQLiteError(code, on: connection) }
        guard let handle else { throw SQLiteError(code: SQLITE_MISUSE, message: "no statement in \"\(sql)\"") }
        self.handle = handle
        self.connection = connection
    }

    deinit {
        sqlite3_finalize(handle)
    }

    func bind(_ arguments: [any SQLiteConvertible]) throws(SQLiteError) {
        let expected = sqlite3_bind_parameter_count(handle)
        guard arguments.count == expected else {
            throw SQLiteError(code: SQLITE_RANGE, message: "\(arguments.count) arguments for \(expected) parameters")
        }
        for (offset, argument) in arguments.enumerated() {
            let index = Int32(offset + 1)
            let code: Int32
            switch argument.sqliteValue {
            case .null: code = sqlite3_bind_null(handle, index)
            case .integer(let value): code = sqlite3_bind_int64(handle, index, value)
            case .real(let value): code = sqlite3_bind_double(handle, index, value)
            case .text(var value):
                code = value.withUTF8 { bytes in
                    // An empty buffer may have no address, which SQLite would bind as NULL.
                    guard let base = bytes.baseAddress, !bytes.isEmpty else { return sqlite3_bind_text(handle, index, "", 0, Self.transient) }
                    return base.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                        sqlite3_bind_text64(handle, index, $0, UInt64(bytes.count), Self.transient, UInt8(SQLITE_UTF8))
                    }
                }
            case .blob(let value):
                code = value.withUnsafeBytes { bytes in
                    guard let base = bytes.baseAddress, !bytes.isEmpty else { return sqlite3_bind_zeroblob(handle, index, 0) }
                    return sqlite3_bind_blob64(handle, index, base, UInt64(bytes.count), Self.transient)
                }
            }
            guard code == SQLITE_OK else { throw SQLiteError(code, on: connection) }
        }
    }

    /// SQLite copies the bytes before the bind returns (`SQLITE_TRANSIENT`).
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    /// Runs to the next row: true when there is one, false when the statement is done.
    func step() throws(SQLiteError) -> Bool {
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        case let code: throw SQLiteError(code, on: connection)
        }
    }

    /// Ready for the next use; a read that stopped before its last row ends its read
    /// transaction here (a statement left mid-way would keep the WAL from being checkpointed).
    func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    func value(at column: Int32) -> SQLiteValue {
        switch sqlite3_column_type(handle, column) {
        case SQLITE_INTEGER:
            return .integer(sqlite3_column_int64(handle, column))
        case SQLITE_FLOAT:
            return .real(sqlite3_column_double(handle, column))
        case SQLITE_TEXT:
            // The text first, then its length (SQLite's order: the length is of that form).
            guard let text = sqlite3_column_text(handle, column) else { return .text("") }
            return .text(String(decoding: UnsafeBufferPointer(start: text, count: Int(sqlite3_column_bytes(handle, column))), as: UTF8.self))
        case SQLITE_BLOB:
            guard let blob = sqlite3_column_blob(handle, column) else { return .blob([]) }
            return .blob(Array(UnsafeRawBufferPointer(start: blob, count: Int(sqlite3_column_bytes(handle, column)))))
        default:
            return .null
        }
    }

    /// The index of the result column called `name`.
    func column(named name: String) throws(SQLiteError) -> Int32 {
        if columnIndexes == nil {
            var indexes: [String: Int32] = [:]
            for column in 0..<sqlite3_column_count(handle) {
                guard let name = sqlite3_column_name(handle, column) else { continue }
                indexes[String(cString: name)] = indexes[String(cString: name)] ?? column
            }
            columnIndexes = indexes
        }
        guard let index = columnIndexes?[name] else { throw SQLiteError(code: SQLITE_RANGE, message: "no column \(name) in the result") }
        return index
    }
}

/// The row a query is on, read column by column while the query stays there (do not keep it).
package struct SQLiteRow {
    let statement: SQLiteStatement

    /// The value of the `column`th result column (from 0).
    package func get<T: SQLiteConvertible>(_ column: Int) throws(SQLiteError) -> T {
        try Self.read(statement.value(at: Int32(column)), column: column)
    }

    /// The value of the result column called `name` (a lookup by name for each call: a type
    /// read from many rows reads by place, `SQLiteColumnReader`).
    package func get<T: SQLiteConvertible>(_ name: String) throws(SQLiteError) -> T {
        try Self.read(statement.value(at: try statement.column(named: name)), column: name)
    }

    /// `column` is said only in an error: a row read builds no text.
    private static func read<T: SQLiteConvertible>(_ value: SQLiteValue, column: some CustomStringConvertible) throws(SQLiteError) -> T {
        do {
            return try T(sqliteValue: value)
        } catch {
            throw SQLiteError(code: error.code, message: "column \(column): \(error.message)")
        }
    }
}

/// Reads a row's columns one after the other, from the first: for a type whose query names its
/// columns in the order it reads them (a track: 28 columns, 20,000 rows for one MPD `search`,
/// where a lookup by name hashed each column's name on each row).
package struct SQLiteColumnReader {
    private let row: SQLiteRow
    private var column = 0

    package init(_ row: SQLiteRow) {
        self.row = row
    }

    /// The next column's value.
    package mutating func next<T: SQLiteConvertible>() throws(SQLiteError) -> T {
        try next(as: T.self)
    }

    // The types a row holds most, read without generics: from another module a generic read is
    // not made for its type, and each read of an optional column looked up `Optional<T>`'s type
    // metadata at run time (a twelfth of the time of an MPD answer of 20,000 songs).
    package mutating func next() throws(SQLiteError) -> String { try next(as: String.self) }
    package mutating func next() throws(SQLiteError) -> String? { try next(as: String?.self) }
    package mutating func next() throws(SQLiteError) -> Int64? { try next(as: Int64?.self) }
    package mutating func next() throws(SQLiteError) -> Int? { try next(as: Int?.self) }
    package mutating func next() throws(SQLiteError) -> Double? { try next(as: Double?.self) }
    package mutating func next() throws(SQLiteError) -> Bool { try next(as: Bool.self) }

    private mutating func next<T: SQLiteConvertible>(as type: T.Type) throws(SQLiteError) -> T {
        defer { column += 1 }
        return try row.get(column)
    }
}

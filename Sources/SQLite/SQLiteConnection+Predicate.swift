import CSQLite

/// Tests SQLite does not have, as SQL functions on this connection.
extension SQLiteConnection {
    /// Registers `test` as the SQL function `name` of `arguments` arguments, returning 1 or 0.
    /// Deterministic: SQLite may call it once for equal arguments in a statement. SQLite keeps it
    /// until the connection closes.
    package func createPredicate(_ name: String, arguments: Int32, _ test: @escaping (SQLiteArguments) -> Bool) throws(SQLiteError) {
        final class Box {
            let test: (SQLiteArguments) -> Bool
            init(_ test: @escaping (SQLiteArguments) -> Bool) { self.test = test }
        }
        let handle = try open()
        let box = Unmanaged.passRetained(Box(test)).toOpaque()
        let code = sqlite3_create_function_v2(handle, name, arguments, SQLITE_UTF8 | SQLITE_DETERMINISTIC, box, { context, count, values in
            let box = Unmanaged<Box>.fromOpaque(sqlite3_user_data(context)!).takeUnretainedValue()
            sqlite3_result_int(context, box.test(SQLiteArguments(values: values, count: Int(count))) ? 1 : 0)
        }, nil, nil, { box in
            Unmanaged<Box>.fromOpaque(box!).release()
        })
        // SQLite calls the destructor itself when this call fails.
        guard code == SQLITE_OK else { throw SQLiteError(code, on: handle) }
    }
}

/// The arguments of one call of a function registered with `createPredicate`, read in place:
/// called once per row, it allocates nothing.
package struct SQLiteArguments {
    fileprivate let values: UnsafeMutablePointer<OpaquePointer?>?
    package let count: Int

    /// Argument `index` as UTF-8 text (a number as SQLite writes it); nil for NULL. Valid only
    /// during the call.
    package subscript(index: Int) -> UnsafeBufferPointer<UInt8>? {
        guard index < count, let value = values?[index], sqlite3_value_type(value) != SQLITE_NULL,
              let text = sqlite3_value_text(value) else { return nil }
        return UnsafeBufferPointer(start: text, count: Int(sqlite3_value_bytes(value)))
    }
}

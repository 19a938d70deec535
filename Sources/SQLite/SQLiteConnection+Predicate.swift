import CSQLite

/// Tests SQLite does not have, as SQL functions on this connection.
extension SQLiteConnection {
    /// Registers `test` as the SQL function `name` of `arguments` arguments, each given as text
    /// (nil for NULL; numbers as SQLite writes them), returning 1 or 0. Deterministic: SQLite may
    /// call it once for equal arguments in a statement. SQLite keeps it until the connection closes.
    package func createPredicate(_ name: String, arguments: Int32, _ test: @escaping ([String?]) -> Bool) throws(SQLiteError) {
        final class Box {
            let test: ([String?]) -> Bool
            init(_ test: @escaping ([String?]) -> Bool) { self.test = test }
        }
        let handle = try open()
        let box = Unmanaged.passRetained(Box(test)).toOpaque()
        let code = sqlite3_create_function_v2(handle, name, arguments, SQLITE_UTF8 | SQLITE_DETERMINISTIC, box, { context, count, values in
            let box = Unmanaged<Box>.fromOpaque(sqlite3_user_data(context)!).takeUnretainedValue()
            let texts = (0..<Int(count)).map { index -> String? in
                guard let value = values?[index], sqlite3_value_type(value) != SQLITE_NULL,
                      let text = sqlite3_value_text(value) else { return nil }
                return String(cString: text)
            }
            sqlite3_result_int(context, box.test(texts) ? 1 : 0)
        }, nil, nil, { box in
            Unmanaged<Box>.fromOpaque(box!).release()
        })
        // SQLite calls the destructor itself when this call fails.
        guard code == SQLITE_OK else { throw SQLiteError(code, on: handle) }
    }
}

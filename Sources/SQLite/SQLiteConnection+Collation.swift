import CSQLite

/// Orders of text SQLite does not have, for `ORDER BY … COLLATE name` on this connection.
extension SQLiteConnection {
    /// Registers `compare` (the two texts' UTF-8 bytes; negative, zero or positive as with
    /// `strcmp`) as the collation `name`. It must be a total order: SQLite sorts and indexes by it.
    /// SQLite keeps it until the connection closes.
    package func createCollation(_ name: String, _ compare: @escaping (UnsafeRawBufferPointer, UnsafeRawBufferPointer) -> Int32) throws(SQLiteError) {
        final class Box {
            let compare: (UnsafeRawBufferPointer, UnsafeRawBufferPointer) -> Int32
            init(_ compare: @escaping (UnsafeRawBufferPointer, UnsafeRawBufferPointer) -> Int32) { self.compare = compare }
        }
        let handle = try open()
        let box = Unmanaged.passRetained(Box(compare)).toOpaque()
        let code = sqlite3_create_collation_v2(handle, name, SQLITE_UTF8, box, { box, leftCount, left, rightCount, right in
            Unmanaged<Box>.fromOpaque(box!).takeUnretainedValue()
                .compare(UnsafeRawBufferPointer(start: left, count: Int(leftCount)), UnsafeRawBufferPointer(start: right, count: Int(rightCount)))
        }, { box in
            Unmanaged<Box>.fromOpaque(box!).release()
        })
        guard code == SQLITE_OK else {
            // Unlike its other calls, SQLite does not call the destructor when this one fails.
            Unmanaged<Box>.fromOpaque(box).release()
            throw SQLiteError(code, on: handle)
        }
    }
}

import CSQLite

/// A failure as SQLite reported it: its extended result code and its message. The code is what
/// callers decide on (a damaged file is set aside; a busy or full disk is only reported), the
/// message what the log and the CLI show.
package struct SQLiteError: Error, Equatable, CustomStringConvertible {
    /// The extended result code (`SQLITE_CORRUPT_INDEX`, `SQLITE_IOERR_SHORT_READ`, …).
    package let code: Int32
    package let message: String

    package init(code: Int32, message: String) {
        self.code = code
        self.message = message
    }

    /// The error SQLite has just reported on `connection` (`code`, when it is not one).
    init(_ code: Int32, on connection: OpaquePointer?) {
        let reported = connection.map { sqlite3_extended_errcode($0) } ?? code
        let extended = reported & 0xff == code & 0xff ? reported : code
        self.init(code: extended, message: connection.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
            ?? String(cString: sqlite3_errstr(code)))
    }

    /// A stored value that is not of the type asked for (`SQLITE_MISMATCH`).
    package static func mismatch(_ found: SQLiteValue, expected: String) -> SQLiteError {
        SQLiteError(code: SQLITE_MISMATCH, message: "expected \(expected), found \(found.kind)")
    }

    /// The primary result code: the low byte of `code`.
    package var primaryCode: Int32 { code & 0xff }

    /// SQLite found the file damaged (`SQLITE_CORRUPT`) or not a database at all
    /// (`SQLITE_NOTADB`) — not a lock, a full disk or a permission, which leave the file sound.
    package var isDamage: Bool { primaryCode == SQLITE_CORRUPT || primaryCode == SQLITE_NOTADB }

    /// Another connection holds the lock for longer than the busy timeout.
    package var isBusy: Bool { primaryCode == SQLITE_BUSY }

    /// A UNIQUE, NOT NULL, CHECK or foreign key constraint refused a write.
    package var isConstraint: Bool { primaryCode == SQLITE_CONSTRAINT }

    /// The message; for an I/O error also its extended code, which says which call failed
    /// (`SQLITE_IOERR_FSYNC` 1034, `SQLITE_IOERR_SHMMAP` 5386, …) where the message does not.
    package var description: String { primaryCode == SQLITE_IOERR && code != SQLITE_IOERR ? "\(message) (SQLite code \(code))" : message }
}

import Glibc
import SQLite

/// Telling a damaged database (a power loss on a bad disk, a filesystem crash, a hand edit) from
/// one that is merely busy or unreadable: only damage makes the library set the file aside and
/// start afresh.
extension LibraryStore {
    /// SQLite's verdict on an error: why the file is damaged (`SQLITE_CORRUPT`, `SQLITE_NOTADB`),
    /// or nil for any other failure (a full disk, a lock, a permission), which is not a reason to
    /// move the user's file.
    static func damage(_ error: any Error) -> String? {
        guard let error = error as? SQLiteError, error.isDamage else { return nil }
        return error.message
    }

    /// Checks a newly opened database with `PRAGMA quick_check` (every page and index
    /// structurally, without cross-checking row contents: fast enough for each start).
    static func check(_ database: SQLiteConnection, path: String) throws {
        let problems: [String] = try database.fetchValues("PRAGMA quick_check")
        guard problems != ["ok"] else { return }
        throw LibraryError.damaged(path: path, reason: problems.prefix(3).joined(separator: "; "))
    }

    /// Why the file (under an open connection, or about to be opened) is not a database, or nil. SQLite serves a
    /// small library from its page cache and would notice a file overwritten or cut short only at
    /// the next page it reads — maybe never, or by checkpointing into the garbage. So before each
    /// request this reads the 100-byte header: the magic string, and a size that is a whole
    /// number of pages (a WAL database never has a partial page).
    static func damageOnDisk(at path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }  // gone or unreadable: SQLite says why when it matters
        defer { Glibc.close(descriptor) }
        var header = [UInt8](repeating: 0, count: 100)
        let count = pread(descriptor, &header, header.count, 0)
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return nil }
        if status.st_size == 0 { return nil }  // not yet written: a new database
        guard count == 100, header.starts(with: Array("SQLite format 3\0".utf8)) else { return "file is not a database" }
        var pageSize = Int(header[16]) << 8 | Int(header[17])
        if pageSize == 1 { pageSize = 65536 }
        guard pageSize >= 512, Int(status.st_size) % pageSize == 0 else {
            return "the file is cut short: \(status.st_size) bytes is not a whole number of \(pageSize)-byte pages"
        }
        return nil
    }
}

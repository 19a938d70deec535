import CSQLite

/// One connection to an SQLite database, and the one place cloudplayerd calls SQLite.
///
/// Not `Sendable`: its owner uses it from one thread at a time (the library's actor runs on a
/// thread of its own), so it is opened without SQLite's per-connection mutex. Every call blocks
/// on the disk; none belongs on Swift's cooperative pool.
package final class SQLiteConnection {
    private var handle: OpaquePointer?
    /// Prepared statements by their SQL, reused: a scan runs the same few thousands of times.
    private var statements: [String: SQLiteStatement] = [:]
    /// FTS5 tokenizers made on this connection, by name (see `SQLiteConnection+FTS5`).
    var tokenizers: [String: FTS5Tokenizer] = [:]

    /// Opens (or creates) the database at `path`. `busyTimeout`: how long a statement waits for
    /// another connection's lock before it fails with `SQLITE_BUSY`. Foreign keys are enforced.
    package init(path: String, busyTimeout: Duration = .seconds(5)) throws(SQLiteError) {
        var handle: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        let code = sqlite3_open_v2(path, &handle, flags, nil)
        guard code == SQLITE_OK else {
            let error = SQLiteError(code, on: handle)
            sqlite3_close_v2(handle)
            throw error
        }
        self.handle = handle
        let (seconds, attoseconds) = busyTimeout.components
        sqlite3_busy_timeout(handle, Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000))
        try execute(script: "PRAGMA foreign_keys = ON")
    }

    deinit {
        close()
    }

    /// The SQLite library as loaded at run time ("3.40.1").
    package static var version: String { String(cString: sqlite3_libversion()) }

    /// Closes the connection now: at the end of this call nothing of it touches the files (its
    /// last checkpoint and the removal of its `-wal` happen here). Later calls fail.
    package func close() {
        guard let handle else { return }
        statements.removeAll()
        for tokenizer in tokenizers.values { tokenizer.delete() }
        tokenizers.removeAll()
        sqlite3_close_v2(handle)
        self.handle = nil
    }

    /// The open `sqlite3`, or the error of a call after `close()`.
    func open() throws(SQLiteError) -> OpaquePointer {
        guard let handle else { throw SQLiteError(code: SQLITE_MISUSE, message: "the database is closed") }
        return handle
    }

    // MARK: Statements

    /// Runs SQL without arguments, one or several statements (a migration, a PRAGMA).
    package func execute(script sql: String) throws(SQLiteError) {
        let handle = try open()
        var message: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &message)
        defer { sqlite3_free(message) }
        guard code == SQLITE_OK else {
            throw SQLiteError(code: sqlite3_extended_errcode(handle), message: message.map { String(cString: $0) } ?? "error \(code)")
        }
    }

    /// Runs one statement with its `?` parameters bound to `arguments`; returns how many rows
    /// it changed.
    @discardableResult
    package func execute(_ sql: String, _ arguments: [any SQLiteConvertible] = []) throws(SQLiteError) -> Int {
        let statement = try prepared(sql)
        defer { done(with: statement) }
        try statement.bind(arguments)
        while try statement.step() {}
        return Int(sqlite3_changes64(try open()))
    }

    /// Every row of a query, each made into a `T` by `row`.
    package func fetchAll<T>(_ sql: String, _ arguments: [any SQLiteConvertible] = [], _ row: (SQLiteRow) throws -> T) throws -> [T] {
        let statement = try prepared(sql)
        defer { done(with: statement) }
        try statement.bind(arguments)
        var rows: [T] = []
        while try statement.step() { rows.append(try row(SQLiteRow(statement: statement))) }
        return rows
    }

    /// The first row of a query, made into a `T`; nil when there is none.
    package func fetchOne<T>(_ sql: String, _ arguments: [any SQLiteConvertible] = [], _ row: (SQLiteRow) throws -> T) throws -> T? {
        let statement = try prepared(sql)
        defer { done(with: statement) }
        try statement.bind(arguments)
        return try statement.step() ? try row(SQLiteRow(statement: statement)) : nil
    }

    /// The first column of the first row; nil when there is no row or the value is NULL.
    package func fetchValue<T: SQLiteConvertible>(_ sql: String, _ arguments: [any SQLiteConvertible] = []) throws(SQLiteError) -> T? {
        let statement = try prepared(sql)
        defer { done(with: statement) }
        try statement.bind(arguments)
        guard try statement.step() else { return nil }
        return try SQLiteRow(statement: statement).get(0) as T?
    }

    /// The first column of every row (NULLs left out).
    package func fetchValues<T: SQLiteConvertible>(_ sql: String, _ arguments: [any SQLiteConvertible] = []) throws -> [T] {
        try fetchAll(sql, arguments) { try $0.get(0) as T? }.compactMap { $0 }
    }

    /// The id SQLite gave the row the last INSERT made.
    package var lastInsertedRowID: Int64 {
        handle.map { sqlite3_last_insert_rowid($0) } ?? 0
    }

    /// The statement for `sql`, prepared once and kept; a fresh one when it is in use already.
    private func prepared(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        if let statement = statements[sql], !statement.inUse {
            statement.inUse = true
            return statement
        }
        let statement = try SQLiteStatement(sql, connection: try open())
        // Queries made up per call (an IN list of each length) must not grow the cache forever.
        if statements.count >= 200 { statements.removeAll() }
        if statements[sql] == nil { statements[sql] = statement }
        statement.inUse = true
        return statement
    }

    private func done(with statement: SQLiteStatement) {
        statement.reset()
        statement.inUse = false
    }

    // MARK: Transactions

    package enum TransactionKind: String {
        /// Takes the write lock at the first write: for reads, which then see one snapshot.
        case deferred = "BEGIN DEFERRED"
        /// Takes the write lock at once (waiting up to the busy timeout), so a transaction that
        /// reads then writes never fails half-way for a lock another connection took meanwhile.
        case immediate = "BEGIN IMMEDIATE"
    }

    /// Whether a transaction is open.
    package var isInTransaction: Bool {
        handle.map { sqlite3_get_autocommit($0) == 0 } ?? false
    }

    /// Runs `body` in a transaction: committed when it returns, rolled back when it (or the
    /// commit) throws, and the error passed on.
    @discardableResult
    package func transaction<T>(_ kind: TransactionKind, _ body: () throws -> T) throws -> T {
        try execute(kind.rawValue)
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            // SQLite may have rolled back already (some errors end the transaction themselves).
            if isInTransaction { _ = try? execute("ROLLBACK") }
            throw error
        }
    }
}

@available(*, unavailable, message: "one thread at a time: the connection is opened without SQLite's mutex")
extension SQLiteConnection: Sendable {}

import Foundation
import SQLite
import Testing
import TestSupport

/// The one Swift layer over SQLite, on real database files: every kind of value there and back,
/// transactions, the migrator, SQLite's own errors (a damaged file, a lock), FTS5's tokenizer.
@Suite struct SQLiteConnectionTests {
    private static func database() throws -> (SQLiteConnection, path: String) {
        let path = try Fixtures.shared.scratchDirectory().appendingPathComponent("test.sqlite").path
        return (try SQLiteConnection(path: path), path)
    }

    @Test("integers, reals, text, blobs, booleans and NULL are stored as such and read back the same")
    func values() throws {
        let (db, _) = try Self.database()
        try db.execute(script: "CREATE TABLE value (i INTEGER, r REAL, t TEXT, b BLOB, n, flag INTEGER)")
        let rows: [(Int64, Double, String, [UInt8], Bool)] = [
            (.max, 1.5, "Café — \u{1F3B5}", [0, 1, 255], true),
            (.min, -0.0, "", [], false),
            (0, 3, "with\0nul", [0], true),
        ]
        for (i, r, t, b, flag) in rows {
            try db.execute("INSERT INTO value (i, r, t, b, n, flag) VALUES (?, ?, ?, ?, ?, ?)", [i, r, t, b, String?.none, flag])
        }
        let read = try db.fetchAll("SELECT * FROM value ORDER BY rowid") { row in
            (try row.get("i") as Int64, try row.get(1) as Double, try row.get("t") as String, try row.get("b") as [UInt8],
             try row.get("n") as String?, try row.get("flag") as Bool)
        }
        #expect(read.count == 3)
        for (stored, original) in zip(read, rows) {
            #expect(stored.0 == original.0 && stored.1 == original.1 && stored.2 == original.2 && stored.3 == original.3)
            #expect(stored.4 == nil && stored.5 == original.4)
        }
        // The storage classes themselves: an empty string is text, not NULL; 3 in a REAL column is a real.
        let classes: [String] = try db.fetchValues("SELECT typeof(t) || ' ' || typeof(b) || ' ' || typeof(r) FROM value ORDER BY rowid")
        #expect(classes == ["text blob real", "text blob real", "text blob real"])
        #expect(try db.fetchValue("SELECT i FROM value WHERE t = ?", [""]) == Int64.min)
        #expect(try db.fetchValue("SELECT n FROM value") as String? == nil, "NULL reads as nil")
        #expect(try db.fetchValue("SELECT i FROM value WHERE 0") as Int64? == nil, "no row reads as nil")
    }

    @Test("a value of another storage class than asked for is an error naming the column, never a silent zero")
    func mismatches() throws {
        let (db, _) = try Self.database()
        let error = #expect(throws: SQLiteError.self) {
            _ = try db.fetchOne("SELECT 'text' AS word") { try $0.get("word") as Int64 }
        }
        #expect(error?.primaryCode == 20 && error?.message.contains("column word") == true, "SQLITE_MISMATCH: \(String(describing: error))")
        #expect(throws: SQLiteError.self) { _ = try db.fetchOne("SELECT NULL AS nothing") { try $0.get(0) as String } }
        #expect(throws: SQLiteError.self) { try db.execute("SELECT ?", []) }
        #expect(try db.fetchValue("SELECT 2") as Double? == 2, "an integer is a Double's value too")
    }

    @Test("a row read column after column: each common type, and any other through the generic read; a mismatch names the column")
    func columnReader() throws {
        let (db, _) = try Self.database()
        let read = try db.fetchOne("SELECT 7, 'seven', NULL, 2.5, 1, NULL, 9, x'0102'") { row in
            var columns = SQLiteColumnReader(row)
            return (try columns.next() as Int64?, try columns.next() as String, try columns.next() as String?,
                    try columns.next() as Double?, try columns.next() as Bool, try columns.next() as Int?,
                    try columns.next() as Int?, try columns.next() as [UInt8])
        }
        #expect(read?.0 == 7 && read?.1 == "seven" && read?.2 == nil && read?.3 == 2.5 && read?.4 == true)
        #expect(read?.5 == nil && read?.6 == 9 && read?.7 == [1, 2])
        let error = #expect(throws: SQLiteError.self) {
            _ = try db.fetchOne("SELECT 1, 'two'") { row in
                var columns = SQLiteColumnReader(row)
                return (try columns.next() as Int?, try columns.next() as Int?)
            }
        }
        #expect(error?.primaryCode == 20 && error?.message.contains("column 1") == true, "SQLITE_MISMATCH: \(String(describing: error))")
    }

    @Test("a transaction commits what its body did, and rolls all of it back when the body or a statement throws")
    func transactions() throws {
        struct Refused: Error {}
        let (db, _) = try Self.database()
        try db.execute(script: "CREATE TABLE item (name TEXT NOT NULL UNIQUE)")
        try db.transaction(.immediate) { try db.execute("INSERT INTO item VALUES (?)", ["kept"]) }
        #expect(throws: Refused.self) {
            try db.transaction(.immediate) {
                try db.execute("INSERT INTO item VALUES (?)", ["dropped"])
                throw Refused()
            }
        }
        let constraint = #expect(throws: SQLiteError.self) {
            try db.transaction(.deferred) {
                try db.execute("INSERT INTO item VALUES (?)", ["also dropped"])
                try db.execute("INSERT INTO item VALUES (?)", ["kept"])
            }
        }
        #expect(constraint?.isConstraint == true)
        #expect(!db.isInTransaction)
        #expect(try db.fetchValues("SELECT name FROM item") as [String] == ["kept"])
    }

    @Test("a query inside another's rows, with the same SQL, gets a statement of its own")
    func nestedQueries() throws {
        let (db, _) = try Self.database()
        try db.execute(script: "CREATE TABLE n (v INTEGER); INSERT INTO n VALUES (1), (2), (3)")
        let sql = "SELECT v FROM n WHERE v >= ? ORDER BY v"
        let pairs = try db.fetchAll(sql, [2]) { row in
            (try row.get(0) as Int, try db.fetchValues(sql, [1]) as [Int])
        }
        #expect(pairs.map(\.0) == [2, 3] && pairs.allSatisfy { $0.1 == [1, 2, 3] })
    }

    @Test("the migrator runs each migration once, in order, records it by name, and knows a database from a newer program")
    func migrator() throws {
        let (db, path) = try Self.database()
        var runs: [String] = []
        var migrator = SQLiteMigrator(table: "migrations")
        migrator.register("one") { db in
            runs.append("one")
            try db.execute(script: "CREATE TABLE a (x)")
        }
        #expect(try migrator.applied(in: db).isEmpty)
        try migrator.migrate(db)
        try migrator.migrate(db)
        #expect(runs == ["one"])
        migrator.register("two") { db in
            runs.append("two")
            try db.execute(script: "ALTER TABLE a ADD COLUMN y")
        }
        try migrator.migrate(db)
        #expect(runs == ["one", "two"])
        #expect(try migrator.applied(in: db) == ["one", "two"])
        #expect(try !migrator.isSuperseded(db))

        // A migration that fails leaves no trace: not recorded, its changes rolled back.
        struct Broken: Error {}
        migrator.register("three") { db in
            try db.execute(script: "CREATE TABLE b (z)")
            throw Broken()
        }
        #expect(throws: Broken.self) { try migrator.migrate(db) }
        #expect(try migrator.applied(in: db) == ["one", "two"])
        #expect(try db.fetchValue("SELECT 1 FROM sqlite_master WHERE name = 'b'") as Int? == nil)
        #expect(try db.fetchValue("PRAGMA foreign_keys") == true, "foreign keys enforced again after a migration")

        try db.execute("INSERT INTO migrations VALUES (?)", ["from-the-future"])
        db.close()
        let reopened = try SQLiteConnection(path: path)
        #expect(try migrator.isSuperseded(reopened))
    }

    @Test("a file that is not a database, and one with a damaged page, fail with SQLite's own codes, recognised as damage")
    func damage() throws {
        let directory = try Fixtures.shared.scratchDirectory()
        let garbage = directory.appendingPathComponent("garbage.sqlite")
        try Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }).write(to: garbage)
        let notADatabase = #expect(throws: SQLiteError.self) {
            _ = try SQLiteConnection(path: garbage.path).fetchValues("SELECT name FROM sqlite_master") as [String]
        }
        #expect(notADatabase?.primaryCode == 26 && notADatabase?.isDamage == true, "SQLITE_NOTADB: \(String(describing: notADatabase))")

        // A table over several pages, then its second page overwritten with the same bytes each run.
        let damaged = directory.appendingPathComponent("damaged.sqlite")
        do {
            let db = try SQLiteConnection(path: damaged.path)
            try db.execute(script: "PRAGMA page_size = 4096; CREATE TABLE t (v TEXT)")
            try db.transaction(.immediate) {
                for index in 0..<200 { try db.execute("INSERT INTO t VALUES (?)", [String(repeating: "\(index)", count: 40)]) }
            }
            db.close()
        }
        let handle = try FileHandle(forUpdating: damaged)
        try handle.seek(toOffset: 4096)
        try handle.write(contentsOf: Data(repeating: 0xA5, count: 4096))
        try handle.close()
        let corrupt = #expect(throws: SQLiteError.self) {
            _ = try SQLiteConnection(path: damaged.path).fetchValues("SELECT v FROM t") as [String]
        }
        #expect(corrupt?.primaryCode == 11 && corrupt?.isDamage == true, "SQLITE_CORRUPT: \(String(describing: corrupt))")

        // A lock held elsewhere is no damage: it fails as busy once the (short) timeout is over.
        let (db, path) = try Self.database()
        try db.execute(script: "CREATE TABLE t (v); BEGIN IMMEDIATE; INSERT INTO t VALUES (1)")
        let other = try SQLiteConnection(path: path, busyTimeout: .milliseconds(50))
        let busy = #expect(throws: SQLiteError.self) { try other.execute("INSERT INTO t VALUES (2)") }
        #expect(busy?.isBusy == true && busy?.isDamage == false, "\(String(describing: busy))")
    }

    @Test("FTS5's unicode61 tokenizer splits and folds text as the index does; operators are only words")
    func tokenizer() throws {
        let (db, _) = try Self.database()
        #expect(try db.tokens(of: #"Café  "NEAR( Ünïcode* OR-x"#, tokenizer: "unicode61") == ["cafe", "near", "unicode", "or", "x"])
        #expect(try db.tokens(of: " ,. ", tokenizer: "unicode61").isEmpty)
        #expect(throws: SQLiteError.self) { try db.tokens(of: "x", tokenizer: "no-such-tokenizer") }
    }

    @Test("a collation of our own orders ORDER BY … COLLATE")
    func collation() throws {
        let (db, _) = try Self.database()
        try db.createCollation("reversed") { left, right in
            let (a, b) = (Array(left), Array(right))
            return a == b ? 0 : (a.lexicographicallyPrecedes(b) ? 1 : -1)
        }
        try db.execute(script: "CREATE TABLE w (v TEXT); INSERT INTO w VALUES ('b'), ('a'), ('c')")
        #expect(try db.fetchValues("SELECT v FROM w ORDER BY v COLLATE reversed") as [String] == ["c", "b", "a"])
    }

    @Test("after close every call fails, and the WAL file is gone")
    func close() throws {
        let (db, path) = try Self.database()
        try db.execute(script: "PRAGMA journal_mode = WAL; CREATE TABLE t (v); INSERT INTO t VALUES (1)")
        #expect(FileManager.default.fileExists(atPath: path + "-wal"))
        db.close()
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
        #expect(throws: SQLiteError.self) { try db.execute("SELECT 1") }
        #expect(SQLiteConnection.version.split(separator: ".").count == 3)
    }
}

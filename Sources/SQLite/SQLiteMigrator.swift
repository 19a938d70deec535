import CSQLite

/// A database's schema as a list of named migrations, oldest first, each run once in a
/// transaction of its own and recorded by name in a table of the database.
///
/// A database that records a migration this list does not have was written by a newer program:
/// `isSuperseded` says so, so that the caller can leave the file alone.
package struct SQLiteMigrator {
    /// The table of applied migrations' names.
    let table: String
    private var migrations: [(identifier: String, migrate: (SQLiteConnection) throws -> Void)] = []

    /// `table`: where the names are kept, `(identifier TEXT NOT NULL PRIMARY KEY)`; a plain
    /// name (letters, digits, `_`), written into the SQL as it is.
    package init(table: String) {
        precondition(!table.isEmpty && table.allSatisfy { $0 == "_" || ($0.isASCII && ($0.isLetter || $0.isNumber)) },
                     "not a plain table name: \(table)")
        self.table = table
    }

    package mutating func register(_ identifier: String, _ migrate: @escaping (SQLiteConnection) throws -> Void) {
        precondition(!migrations.contains { $0.identifier == identifier }, "migration \(identifier) twice")
        migrations.append((identifier, migrate))
    }

    /// The names of the migrations applied to `database` (none if it has no table of them).
    package func applied(in database: SQLiteConnection) throws -> Set<String> {
        let exists = try database.fetchValue("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", [table]) as Int?
        guard exists != nil else { return [] }
        return Set(try database.fetchValues("SELECT identifier FROM \(table)") as [String])
    }

    /// Whether `database` had a migration this list does not know: written by a newer program.
    package func isSuperseded(_ database: SQLiteConnection) throws -> Bool {
        let known = Set(migrations.map(\.identifier))
        return try !applied(in: database).isSubset(of: known)
    }

    /// Runs the migrations `database` has not had, in order. Each runs with foreign keys
    /// unenforced (so a table can be rebuilt under its references) and checked before its
    /// commit, as SQLite's manual prescribes for schema changes.
    package func migrate(_ database: SQLiteConnection) throws {
        try database.execute(script: "CREATE TABLE IF NOT EXISTS \(table) (identifier TEXT NOT NULL PRIMARY KEY)")
        let done = try applied(in: database)
        for migration in migrations where !done.contains(migration.identifier) {
            try database.execute(script: "PRAGMA foreign_keys = OFF")
            defer { try? database.execute(script: "PRAGMA foreign_keys = ON") }
            try database.transaction(.immediate) {
                try migration.migrate(database)
                try database.execute("INSERT INTO \(table) (identifier) VALUES (?)", [migration.identifier])
                if let broken = try database.fetchValue("PRAGMA foreign_key_check") as String? {
                    throw SQLiteError(code: SQLITE_CONSTRAINT | 3 << 8 /* SQLITE_CONSTRAINT_FOREIGNKEY */, message: "migration \(migration.identifier) broke a foreign key of \(broken)")
                }
            }
        }
    }
}

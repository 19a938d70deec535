import GRDB

/// The library database's migrations, oldest first. A database that has a migration this build
/// does not know was written by a newer cloudplayerd, and is not touched.
package enum LibrarySchema {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.create(table: "track") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("url", .text).notNull().unique()
                t.column("source", .text).notNull().indexed()
                t.column("folder", .text).notNull().indexed()
                t.column("size", .integer)
                t.column("validator", .text)
                t.column("title", .text)
                t.column("artist", .text).indexed()
                t.column("album", .text).indexed()
                t.column("albumArtist", .text)
                t.column("genre", .text)
                t.column("trackNumber", .integer)
                t.column("discNumber", .integer)
                t.column("year", .integer)
                t.column("duration", .double)
                t.column("codec", .text)
                t.column("artPath", .text)
                t.column("published", .datetime)
                t.column("gone", .boolean).notNull().defaults(to: false)
                t.column("problem", .text)
                // The scan that last saw it: after a whole scan, the others are gone.
                t.column("scanMark", .integer).notNull().defaults(to: 0)
            }
            try db.create(virtualTable: "trackSearch", using: FTS5()) { t in
                t.synchronize(withTable: "track")
                t.tokenizer = .unicode61()
                t.column("title")
                t.column("artist")
                t.column("album")
                t.column("albumArtist")
                t.column("genre")
            }
            try db.create(table: "playlist") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()
                t.column("kind", .text).notNull()
                t.column("source", .text)
                t.column("url", .text).unique()
                t.column("validator", .text)
                t.column("pinned", .boolean).notNull().defaults(to: false)
                t.column("gone", .boolean).notNull().defaults(to: false)
                t.column("scanMark", .integer).notNull().defaults(to: 0)
            }
            try db.create(index: "playlistUserName", on: "playlist", columns: ["name"], unique: true,
                          condition: Column("kind") == "user")
            try db.create(table: "playlistItem") { t in
                t.column("playlist", .integer).notNull().references("playlist", onDelete: .cascade)
                t.column("position", .integer).notNull()
                t.column("url", .text).notNull()
                t.column("title", .text)
                t.primaryKey(["playlist", "position"])
            }
            try db.create(table: "sourceScan") { t in
                t.primaryKey("source", .text)
                t.column("finished", .datetime)
                t.column("folders", .integer).notNull().defaults(to: 0)
                t.column("problems", .text)
                t.column("mark", .integer).notNull().defaults(to: 0)
            }
        }
        migrator.registerMigration("v2") { db in
            // The search index follows a track only when a searched column changes. GRDB's
            // trigger fired on every update, so a rescan, which marks each track it sees,
            // rewrote every track's index row (6 s for 10,000 unchanged local files).
            try db.execute(sql: """
                DROP TRIGGER "__trackSearch_au";
                CREATE TRIGGER "__trackSearch_au" AFTER UPDATE OF title, artist, album, albumArtist, genre ON track BEGIN
                    INSERT INTO trackSearch(trackSearch, rowid, title, artist, album, albumArtist, genre)
                        VALUES ('delete', old.id, old.title, old.artist, old.album, old.albumArtist, old.genre);
                    INSERT INTO trackSearch(rowid, title, artist, album, albumArtist, genre)
                        VALUES (new.id, new.title, new.artist, new.album, new.albumArtist, new.genre);
                END;
                """)
        }
        migrator.registerMigration("v3") { db in
            // ReplayGain tags, and the place long tracks were left. Tracks scanned before have no
            // gains stored until their file changes;
            // the player reads a track's own tags as it starts, so they play at their level anyway.
            try db.alter(table: "track") { t in
                t.add(column: "trackGain", .double)
                t.add(column: "trackPeak", .double)
                t.add(column: "albumGain", .double)
                t.add(column: "albumPeak", .double)
                // Where a long track was left, and whether it was heard to the end.
                t.add(column: "resumeAt", .double)
                t.add(column: "played", .boolean).notNull().defaults(to: false)
            }
        }
        return migrator
    }
}

import SQLite

/// The library database's migrations, oldest first. A database that has a migration this build
/// does not know was written by a newer cloudplayerd, and is not touched.
///
/// The statements are, to the byte, those GRDB ran when cloudplayerd used it (SQLite keeps their
/// text as the schema), and the applied ones are recorded, as then, by name in
/// `grdb_migrations`: a library made by any version opens as it is, and a new one is the same.
package enum LibrarySchema {
    /// The tokenizer of the search index, `trackSearch`: a search splits its words with it.
    static let searchTokenizer = "unicode61"

    static var migrator: SQLiteMigrator {
        var migrator = SQLiteMigrator(table: "grdb_migrations")
        migrator.register("v1") { db in
            // Tracks, and the search index over their tags: an FTS5 table on the track table's
            // columns (external content), kept in step by triggers.
            try db.execute(script: """
                CREATE TABLE "track" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "url" TEXT NOT NULL UNIQUE, "source" TEXT NOT NULL, \
                "folder" TEXT NOT NULL, "size" INTEGER, "validator" TEXT, "title" TEXT, "artist" TEXT, "album" TEXT, \
                "albumArtist" TEXT, "genre" TEXT, "trackNumber" INTEGER, "discNumber" INTEGER, "year" INTEGER, "duration" DOUBLE, \
                "codec" TEXT, "artPath" TEXT, "published" DATETIME, "gone" BOOLEAN NOT NULL DEFAULT 0, "problem" TEXT, \
                "scanMark" INTEGER NOT NULL DEFAULT 0);
                CREATE INDEX "track_on_source" ON "track"("source");
                CREATE INDEX "track_on_folder" ON "track"("folder");
                CREATE INDEX "track_on_artist" ON "track"("artist");
                CREATE INDEX "track_on_album" ON "track"("album");
                CREATE VIRTUAL TABLE "trackSearch" USING fts5(title, artist, album, albumArtist, genre, \
                tokenize='''unicode61''', content='track', content_rowid='id');
                CREATE TRIGGER "__trackSearch_ai" AFTER INSERT ON "track" BEGIN
                    INSERT INTO "trackSearch"("rowid", "title", "artist", "album", "albumArtist", "genre") \
                VALUES (new."id", new."title", new."artist", new."album", new."albumArtist", new."genre");
                END;
                CREATE TRIGGER "__trackSearch_ad" AFTER DELETE ON "track" BEGIN
                    INSERT INTO "trackSearch"("trackSearch", "rowid", "title", "artist", "album", "albumArtist", "genre") \
                VALUES('delete', old."id", old."title", old."artist", old."album", old."albumArtist", old."genre");
                END;
                CREATE TRIGGER "__trackSearch_au" AFTER UPDATE ON "track" BEGIN
                    INSERT INTO "trackSearch"("trackSearch", "rowid", "title", "artist", "album", "albumArtist", "genre") \
                VALUES('delete', old."id", old."title", old."artist", old."album", old."albumArtist", old."genre");
                    INSERT INTO "trackSearch"("rowid", "title", "artist", "album", "albumArtist", "genre") \
                VALUES (new."id", new."title", new."artist", new."album", new."albumArtist", new."genre");
                END;
                INSERT INTO "trackSearch"("trackSearch") VALUES('rebuild');
                """)
            // Playlists: a user's names are unique among the user's; items go with their playlist.
            try db.execute(script: """
                CREATE TABLE "playlist" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "name" TEXT NOT NULL, "kind" TEXT NOT NULL, \
                "source" TEXT, "url" TEXT UNIQUE, "validator" TEXT, "pinned" BOOLEAN NOT NULL DEFAULT 0, \
                "gone" BOOLEAN NOT NULL DEFAULT 0, "scanMark" INTEGER NOT NULL DEFAULT 0);
                CREATE UNIQUE INDEX "playlistUserName" ON "playlist"("name") WHERE "kind" = 'user';
                CREATE TABLE "playlistItem" ("playlist" INTEGER NOT NULL REFERENCES "playlist"("id") ON DELETE CASCADE, \
                "position" INTEGER NOT NULL, "url" TEXT NOT NULL, "title" TEXT, PRIMARY KEY ("playlist", "position"));
                """)
            // Each source's last scan. `mark` numbers the scans: the tracks a whole scan did not
            // mark are gone.
            try db.execute(script: """
                CREATE TABLE "sourceScan" ("source" TEXT PRIMARY KEY NOT NULL, "finished" DATETIME, \
                "folders" INTEGER NOT NULL DEFAULT 0, "problems" TEXT, "mark" INTEGER NOT NULL DEFAULT 0);
                """)
        }
        migrator.register("v2") { db in
            // The search index follows a track only when a searched column changes. The first
            // trigger fired on every update, so a rescan, which marks each track it sees,
            // rewrote every track's index row (6 s for 10,000 unchanged local files).
            try db.execute(script: """
                DROP TRIGGER "__trackSearch_au";
                CREATE TRIGGER "__trackSearch_au" AFTER UPDATE OF title, artist, album, albumArtist, genre ON track BEGIN
                    INSERT INTO trackSearch(trackSearch, rowid, title, artist, album, albumArtist, genre)
                        VALUES ('delete', old.id, old.title, old.artist, old.album, old.albumArtist, old.genre);
                    INSERT INTO trackSearch(rowid, title, artist, album, albumArtist, genre)
                        VALUES (new.id, new.title, new.artist, new.album, new.albumArtist, new.genre);
                END;
                """)
        }
        migrator.register("v3") { db in
            // ReplayGain tags, and the place long tracks were left. Tracks scanned before have no
            // gains stored until their file changes;
            // the player reads a track's own tags as it starts, so they play at their level anyway.
            try db.execute(script: """
                ALTER TABLE "track" ADD COLUMN "trackGain" DOUBLE;
                ALTER TABLE "track" ADD COLUMN "trackPeak" DOUBLE;
                ALTER TABLE "track" ADD COLUMN "albumGain" DOUBLE;
                ALTER TABLE "track" ADD COLUMN "albumPeak" DOUBLE;
                ALTER TABLE "track" ADD COLUMN "resumeAt" DOUBLE;
                ALTER TABLE "track" ADD COLUMN "played" BOOLEAN NOT NULL DEFAULT 0;
                """)
        }
        migrator.register("v4", LibrarySchema.browseAndTags)
        migrator.register("v5") { db in
            // The speed the user chose for a track as it played (a podcast at 1.5), and where a
            // feed episode's chapters file is.
            try db.execute(script: #"ALTER TABLE "track" ADD COLUMN "speed" DOUBLE; ALTER TABLE "track" ADD COLUMN "chaptersURL" TEXT;"#)
        }
        migrator.register("v6", LibrarySchema.trackEdition)
        migrator.register("v7", LibrarySchema.textTags)
        return migrator
    }
}

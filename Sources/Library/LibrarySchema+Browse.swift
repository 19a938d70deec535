import SQLite

extension LibrarySchema {
    /// v4: what the MPD server asks of the library, from indexes (see `LibraryStore+Browse` and
    /// `LibraryStore+TagQuery`).
    ///
    /// - `track_browse` (gone, folder, url): a folder's tracks, its subfolders (a skip scan over
    ///   `folder`) and every track under it in order, paged by key, without sorting.
    /// - one index per tag an exact `find` or a `list` asks for (artist and album had theirs);
    ///   album artist with album, for the clients' `list album group albumartist`.
    /// - `trackText`: an FTS5 trigram index over the tags, so that MPD's `search` (a substring,
    ///   case folded, anywhere in a tag) reads the few rows that hold the substring instead of
    ///   every row's tags (the word index `trackSearch` finds words, not substrings). A needle of
    ///   fewer than three characters has no trigram; those queries scan.
    static func browseAndTags(_ db: SQLiteConnection) throws {
        try db.execute(script: """
            CREATE INDEX "track_browse" ON "track"("gone", "folder", "url");
            CREATE INDEX "track_on_albumArtist" ON "track"("albumArtist", "album");
            CREATE INDEX "track_on_title" ON "track"("title");
            CREATE INDEX "track_on_genre" ON "track"("genre");
            CREATE INDEX "track_on_year" ON "track"("year");
            CREATE VIRTUAL TABLE "trackText" USING fts5(title, artist, album, albumArtist, genre, \
            tokenize='trigram', content='track', content_rowid='id');
            CREATE TRIGGER "__trackText_ai" AFTER INSERT ON "track" BEGIN
                INSERT INTO trackText(rowid, title, artist, album, albumArtist, genre)
                    VALUES (new.id, new.title, new.artist, new.album, new.albumArtist, new.genre);
            END;
            CREATE TRIGGER "__trackText_ad" AFTER DELETE ON "track" BEGIN
                INSERT INTO trackText(trackText, rowid, title, artist, album, albumArtist, genre)
                    VALUES ('delete', old.id, old.title, old.artist, old.album, old.albumArtist, old.genre);
            END;
            CREATE TRIGGER "__trackText_au" AFTER UPDATE OF title, artist, album, albumArtist, genre ON track BEGIN
                INSERT INTO trackText(trackText, rowid, title, artist, album, albumArtist, genre)
                    VALUES ('delete', old.id, old.title, old.artist, old.album, old.albumArtist, old.genre);
                INSERT INTO trackText(rowid, title, artist, album, albumArtist, genre)
                    VALUES (new.id, new.title, new.artist, new.album, new.albumArtist, new.genre);
            END;
            INSERT INTO trackText(trackText) VALUES ('rebuild');
            """)
    }
}

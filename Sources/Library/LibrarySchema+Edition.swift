import SQLite

extension LibrarySchema {
    /// The columns a listing of a track shows (MPD's song: its path from `folder` and `url`, its
    /// tags, its length) and whether it is listed at all (`gone`), as v6 had them (v7 adds
    /// `textTagColumns`).
    static let listedColumns = ["url", "source", "folder", "title", "artist", "album", "albumArtist", "genre",
                                "trackNumber", "discNumber", "year", "duration", "gone"]

    /// v6: `trackEdition`, a count of the changes to the tracks as listed — one added, one
    /// deleted, one whose listed columns changed — kept by triggers, so that no write can leave
    /// it behind. Read in the same transaction as a query, it tells a copy made from the tracks
    /// (the MPD server's song catalog) whether the query's answer is about the tracks it holds.
    /// An update that leaves those columns as they were (a rescan marking tracks seen, a podcast's
    /// place saved) does not count.
    static func trackEdition(_ db: SQLiteConnection) throws {
        let changed = listedColumns.map { "old.\($0) IS NOT new.\($0)" }.joined(separator: " OR ")
        try db.execute(script: """
            CREATE TABLE "trackEdition" ("changes" INTEGER NOT NULL);
            INSERT INTO "trackEdition" ("changes") VALUES (0);
            CREATE TRIGGER "__trackEdition_ai" AFTER INSERT ON "track" BEGIN
                UPDATE "trackEdition" SET "changes" = "changes" + 1;
            END;
            CREATE TRIGGER "__trackEdition_ad" AFTER DELETE ON "track" BEGIN
                UPDATE "trackEdition" SET "changes" = "changes" + 1;
            END;
            CREATE TRIGGER "__trackEdition_au" AFTER UPDATE OF \(listedColumns.joined(separator: ", ")) ON "track"
            WHEN \(changed) BEGIN
                UPDATE "trackEdition" SET "changes" = "changes" + 1;
            END;
            """)
    }
}

import SQLite

extension LibrarySchema {
    /// The text tags v7 added, in the order of `TextTag` then: a later tag needs its own migration.
    package static let textTagColumns = ["dateText", "originalDate", "composer", "composerSort", "performer", "conductor", "work",
                                 "movement", "movementNumber", "ensemble", "location", "grouping", "comment", "label", "artistSort", "albumSort", "albumArtistSort",
                                 "musicBrainzArtistID", "musicBrainzAlbumID", "musicBrainzAlbumArtistID", "musicBrainzTrackID",
                                 "musicBrainzReleaseTrackID", "musicBrainzWorkID"]

    /// v7: a column for each `TextTag` (composer, the date as written, MusicBrainz ids, …), MPD's
    /// tags beyond the eight the library had; the song catalog's edition follows them too. The
    /// tracks scanned before lose their validator, so the next scan reads their tags again (from
    /// the cache, where their heads are).
    static func textTags(_ db: SQLiteConnection) throws {
        let listed = listedColumns + textTagColumns
        let changed = listed.map { "old.\($0) IS NOT new.\($0)" }.joined(separator: " OR ")
        try db.execute(script: textTagColumns.map { #"ALTER TABLE "track" ADD COLUMN "\#($0)" TEXT;"# }.joined(separator: "\n") + """

            DROP TRIGGER "__trackEdition_au";
            CREATE TRIGGER "__trackEdition_au" AFTER UPDATE OF \(listed.joined(separator: ", ")) ON "track"
            WHEN \(changed) BEGIN
                UPDATE "trackEdition" SET "changes" = "changes" + 1;
            END;
            UPDATE "track" SET "validator" = NULL;
            """)
    }
}

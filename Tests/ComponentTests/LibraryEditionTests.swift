import Foundation
import Library
import Model
import SQLite
import Testing
import TestSupport

/// The tracks' edition (`LibrarySchema.trackEdition`), which tells the MPD server's song catalog
/// whether a query's answer is about the tracks it printed: every change to what a listing shows
/// counts, whoever writes it; what a listing does not show does not.
@Suite struct LibraryEditionTests {
    @Test("a track added, deleted, gone, retagged, moved or of another length is a new edition; its place, play, art or a rescan's mark are not")
    func countsListedChanges() async throws {
        let (library, file) = try await SyntheticLibrary.make(count: 20)
        let database = try SQLiteConnection(path: file.path)
        defer { database.close() }
        let location = TrackLocation(uri: SyntheticLibrary.root + "Artist%200000/Album%2000/01%20Song%20000000.mp3")
        #expect(try await library.track(at: location) != nil, "the generator's first track is where the test expects")

        var last = try await library.edition()
        func changed(_ change: () async throws -> Void) async throws -> Bool {
            try await change()
            let now = try await library.edition()
            defer { last = now }
            return now != last
        }
        func sql(_ statement: String) -> () async throws -> Void {
            { try database.execute(statement, [location.uri]) }
        }
        #expect(try await changed { try await library.recordProgress(at: location, resumeAt: 42, played: true, speed: 1.5) } == false)
        #expect(try await changed { try await library.recordArtwork(at: location, file: "/tmp/cover.jpg") } == false)
        #expect(try await changed { try await sql("UPDATE track SET scanMark = scanMark + 7, gone = 0 WHERE url = ?")() } == false)
        #expect(try await changed { try await sql("UPDATE track SET title = title WHERE url = ?")() } == false)
        for statement in ["UPDATE track SET title = 'Other' WHERE url = ?", "UPDATE track SET albumArtist = 'Someone' WHERE url = ?",
                          "UPDATE track SET duration = 1 WHERE url = ?", "UPDATE track SET year = NULL WHERE url = ?",
                          "UPDATE track SET folder = folder || 'x/' WHERE url = ?", "UPDATE track SET gone = 1 WHERE url = ?",
                          "DELETE FROM track WHERE url = ?"] {
            #expect(try await changed(sql(statement)), "\(statement)")
        }
        #expect(try await changed(sql("INSERT INTO track (url, source, folder) VALUES (?, 'synth', 'file:///synthetic/music/')")))
    }

    @Test("the ids a filter finds, in no order, gone ones too, with the edition they were read at; a word from the trigram index alone")
    func idsWithTheirEdition() async throws {
        let (library, file) = try await SyntheticLibrary.make(count: 2000)
        let database = try SQLiteConnection(path: file.path)
        defer { database.close() }
        try database.execute("UPDATE track SET gone = 1 WHERE id = (SELECT MIN(id) FROM track WHERE artist = 'The Quiet Ones')")
        let quiet = try await library.trackIDs(matching: .tag(.any, .contains, "quiet ONES", foldCase: true))
        let listed = try await library.tracks(matching: TagQuery(filter: .tag(.artist, .equal, "The Quiet Ones", foldCase: false)), from: nil, limit: 100)
        let kept = try #require(listed.tracks.first?.id)
        #expect(quiet.ids.count == 2 && listed.tracks.count == 1 && quiet.ids.contains(kept), "\(quiet.ids), \(listed.tracks.map(\.id))")
        let now = try await library.edition()
        #expect(quiet.edition == now)
        var sql = TagQuerySQL()
        #expect(sql.ids(.tag(.any, .contains, "quiet", foldCase: true)) == "SELECT rowid FROM trackText WHERE trackText MATCH ?")
        #expect(sql.ids(.tag(.artist, .equal, "x", foldCase: false)).hasPrefix("SELECT id FROM track WHERE "))
        #expect(try await library.trackIDs(matching: .tag(.title, .startsWith, "Song 0001", foldCase: false)).ids.count == 100)
    }
}

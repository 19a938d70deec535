import Foundation
import Library
import Model
import SQLite
import Testing
import TestSupport

/// The library database file itself: one written by the GRDB-based cloudplayerd opens unchanged
/// and reads back whole, a new one is made with the same schema, and `ls` orders names as it did.
@Suite struct LibraryDatabaseTests {
    /// Made by the GRDB-based store (commit "Library: a database written by the GRDB-based store,
    /// kept as a fixture"): its values are the ones checked below.
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../LibraryFixtures/library-grdb.sqlite").standardizedFileURL

    /// A copy of the fixture in a scratch folder (opening a database may write to it).
    static func copyOfFixture() throws -> URL {
        let file = try Fixtures.shared.scratchDirectory().appendingPathComponent("library.sqlite")
        try FileManager.default.copyItem(at: fixture, to: file)
        return file
    }

    /// The schema as SQLite keeps it (the statements' text), and the migrations recorded.
    static func schema(of file: URL) throws -> (statements: [String], migrations: [String]) {
        let database = try SQLiteConnection(path: file.path)
        defer { database.close() }
        let statements: [String] = try database.fetchAll("SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY name") { row in
            try [row.get(0) as String, row.get(1), row.get(2), row.get(3) as String? ?? ""].joined(separator: " | ")
        }
        return (statements, try database.fetchValues("SELECT identifier FROM grdb_migrations ORDER BY identifier"))
    }

    static let root = "file:///music/Artist%201/Album/"
    static let one = root + "01%20One.mp3", two = "https://feed.example/ep2.mp3", three = root + "03%20Three.flac"

    @Test("a library written by the GRDB-based cloudplayerd opens as it is and reads back every value, search index included")
    func grdbDatabase() async throws {
        let file = try Self.copyOfFixture()
        let before = try Self.schema(of: file)
        #expect(before.migrations == ["v1", "v2", "v3"])
        let library = LibraryActor()
        try await library.openDatabase(at: file)

        let tracks = try await library.tracks(TrackFilter(includeGone: true), limit: 10)
        #expect(tracks.map(\.url) == [Self.three, Self.one, Self.two], "ordered by artist (none first), album, disc, track")
        let one = try #require(tracks.first { $0.url == Self.one })
        // Its validator forgotten by v7, so the next scan reads its tags again (the ones v7 adds).
        #expect(one.source == "music" && one.folder == Self.root && one.size == 4_000_123 && one.validator == nil)
        #expect(one.tags == TrackTags(title: "One", artist: "Artist 1", album: "Album", albumArtist: "Various", trackNumber: 1,
                                      genre: "Rock", year: 1999, discNumber: 2,
                                      replayGain: ReplayGain(trackGain: -6.5, trackPeak: 0.98, albumGain: -7.25, albumPeak: 0.999)))
        #expect(one.duration == 245.123456 && one.codec == "MP3" && one.artPath == "/home/u/.cache/cloudplayerd/art/abc.jpg")
        #expect(one.resumeAt == 42.5 && !one.played && !one.gone && one.published == nil && one.problem == nil)
        let two = try #require(tracks.first { $0.url == Self.two })
        #expect(two.title == "Café Ünïcode — épisode" && two.artist == "Podcaster" && two.codec == "Opus")
        #expect(two.published == Date(timeIntervalSince1970: 1_709_618_828.25), "GRDB's date text, to the millisecond")
        #expect(two.played && two.resumeAt == nil && two.size == nil && two.trackNumber == nil)
        let three = try #require(tracks.first { $0.url == Self.three })
        #expect(three.gone && three.problem == "cannot read the tags: not an audio file" && three.title == nil)

        let playlists = try await library.playlists()
        #expect(playlists.map { "\($0.playlist.kind) \($0.playlist.name) \($0.count)" } == ["feed The Feed 1", "file Mix 2", "folder Album 1", "user Road / Trip 3"])
        let road = try await library.playlist("Road / Trip")
        #expect(road.id == 4 && road.pinned)
        let entries = try await library.entries(of: road)
        #expect(entries.map(\.url) == [Self.two, Self.one, "file:///elsewhere/z.ogg"])
        #expect(entries.map(\.title) == ["Café Ünïcode — épisode", "One", nil] && entries.map { $0.track?.id } == [2, 1, nil])
        #expect(try await library.playlist("Mix").validator == "W/\"mix\"")
        #expect(try await library.pinnedURLs() == entries.map(\.url))

        let summary = try await library.summary(sources: ["music"])
        #expect(summary.tracks == 2 && summary.playlists == 4)
        let source = try #require(summary.sources.first)
        #expect(source.tracks == 2 && source.gone == 1 && source.problems == "music: one problem\nand another")
        #expect(source.lastScan == Date(timeIntervalSince1970: 1_795_658_780.849), "2026-11-26 02:06:20.849 UTC")

        // The search index GRDB's triggers filled answers, accents folded.
        #expect(try await library.search("cafe unicode").map(\.url) == [Self.two])
        #expect(try await library.search("rock").map(\.url) == [Self.one])
        #expect(try await library.search("not an audio").isEmpty)

        // Opened with no change to what it had, only the later migrations' additions; and written to.
        let after = try Self.schema(of: file)
        #expect(after.migrations == ["v1", "v2", "v3", "v4", "v5", "v6", "v7"])
        #expect(after.statements.filter { !Self.addedByV4($0) && !Self.addedByV6($0) }.map { Self.withoutV5(Self.withoutV7($0)) } == before.statements)
        #expect(after.statements.filter(Self.addedByV6).count == 4, "v6: the edition's table and its three triggers")
        #expect(after.statements.contains { $0.contains(#""composer" TEXT, "composerSort" TEXT"#) }, "v7: the text tags' columns")
        #expect(Set(TextTag.allCases.map(\.rawValue)) == Set(LibrarySchema.textTagColumns), "a column for each text tag a track is written with")
        _ = try await library.createPlaylist(named: "After the port")
        try await library.add([TrackLocation(uri: Self.one)], toPlaylist: "After the port")
        try await library.recordProgress(at: TrackLocation(uri: Self.two), resumeAt: 10, played: false, speed: 1.5)
        let recorded = try await library.track(at: TrackLocation(uri: Self.two))
        #expect(recorded?.resumeAt == 10 && recorded?.metadata.speed == 1.5, "where it was left, and the speed chosen")
        #expect(try await library.entries(of: try await library.playlist("After the port")).map(\.url) == [Self.one])
        try await library.deletePlaylist("Road / Trip")
        let items: Int? = try SQLiteConnection(path: file.path).fetchValue("SELECT COUNT(*) FROM playlistItem WHERE playlist = 4")
        #expect(items == 0, "its items went with it (a foreign key that cascades)")
    }

    /// A schema line as it was before migration v5 added the `speed` and `chaptersURL` columns to `track`.
    static func withoutV5(_ statement: String) -> String {
        statement.replacingOccurrences(of: #", "speed" DOUBLE, "chaptersURL" TEXT"#, with: "")
    }

    /// A schema line as it was before migration v7 added the text tags' columns to `track`.
    static func withoutV7(_ statement: String) -> String {
        statement.replacingOccurrences(of: LibrarySchema.textTagColumns.map { #", "\#($0)" TEXT"# }.joined(), with: "")
    }

    /// A schema line (`type | name | ...`) of what migration v4 added: the MPD server's indexes.
    static func addedByV4(_ statement: String) -> Bool {
        let name = statement.split(separator: " | ").dropFirst().first.map(String.init) ?? ""
        return name.hasPrefix("trackText") || name.hasPrefix("__trackText")
            || ["track_browse", "track_on_albumArtist", "track_on_title", "track_on_genre", "track_on_year"].contains(name)
    }

    /// A schema line of what migration v6 added: the tracks' edition and its triggers.
    static func addedByV6(_ statement: String) -> Bool {
        let name = statement.split(separator: " | ").dropFirst().first.map(String.init) ?? ""
        return name == "trackEdition" || name.hasPrefix("__trackEdition")
    }

    @Test("a new library database has the schema and the record of migrations of a GRDB-made one once opened, statement for statement")
    func newDatabaseSchema() async throws {
        let file = try Fixtures.shared.scratchDirectory().appendingPathComponent("library.sqlite")
        try await LibraryActor().openDatabase(at: file)
        // The GRDB-made file, once opened (and so migrated), has what a new one has.
        let fixture = try Self.copyOfFixture()
        try await LibraryActor().openDatabase(at: fixture)
        let made = try Self.schema(of: file), grdb = try Self.schema(of: fixture)
        #expect(made.migrations == grdb.migrations)
        #expect(made.statements.count == grdb.statements.count)
        for (new, old) in zip(made.statements, grdb.statements) { #expect(new == old) }
    }

    @Test("ls orders artists as a reader does: case and accents aside first (ICU's order, without ICU)")
    func nameOrder() async throws {
        let file = try Fixtures.shared.scratchDirectory().appendingPathComponent("library.sqlite")
        let library = LibraryActor()
        try await library.openDatabase(at: file)
        let artists = ["Zappa", "Édith Piaf", "eagles", "Elvis", "ABBA", "Öland", "oasis", "Eagles", "Ede", "10cc"]
        let database = try SQLiteConnection(path: file.path)
        for (index, artist) in artists.enumerated() {
            try database.execute("INSERT INTO track (url, source, folder, artist) VALUES (?, 'm', 'f', ?)", ["file:///\(index)", artist])
        }
        database.close()
        let listed = try await library.tracks(TrackFilter(), limit: 100).compactMap(\.artist)
        #expect(listed == ["10cc", "ABBA", "Eagles", "eagles", "Ede", "Édith Piaf", "Elvis", "oasis", "Öland", "Zappa"])
    }
}

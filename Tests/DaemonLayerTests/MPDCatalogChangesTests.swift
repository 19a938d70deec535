import Foundation
import Library
import Loader
import MPD
import SourceTypes
import Testing
import TestSupport

/// The end of a scan that changed the library, as the MPD server tells it (`MPDLibraryDatabase
/// .changes()`): `database` comes once the song catalog lists the library as the scan left it,
/// so that a client listing the library on `database` (Cantata) is answered from it; none is made
/// until a client connects.
@Suite(.timeLimit(.minutes(2)))
struct MPDCatalogChangesTests {
    @Test("no catalog before a client connects; then database is told after a scan once the catalog is of the library's new edition, for each of three scans that change it")
    func databaseAfterTheCatalog() async throws {
        let directory = try Fixtures.shared.scratchDirectory()
        let music = directory.appendingPathComponent("music")
        let audio = try await LibraryTree.audio().bytes
        _ = try LibraryTree.write(into: music, artists: 4, albums: 5, tracks: 10, audio: audio)
        let configuration = try LoaderConfiguration.parse("""
            [cache]
            dir = "\(directory.appendingPathComponent("cache").path)"
            [[source]]
            name = "music"
            type = "local"
            path = "\(music.path)"
            """, relativeTo: directory)
        let loader = LoaderActor(settings: configuration.loader, sources: configuration.sources)
        let library = LibraryActor()
        try await library.openDatabase(at: directory.appendingPathComponent("library.sqlite"))
        let database = MPDLibraryDatabase(library: library, loader: loader)
        var changes = database.changes().makeAsyncIterator()
        let keeping = Task { await database.maintain() }
        for round in 0...3 {
            if round == 1 { database.clientArrived() }
            if round > 0 {
                // A new album, so that the scan changes the library.
                _ = try LibraryTree.write(into: music.appendingPathComponent("Round \(round)"), artists: 1, albums: 1, tracks: 3, audio: audio)
            }
            _ = await library.scan(["music"], loader: loader)
            var told: Set<MPDSubsystem> = []
            while !told.contains(.database), let next = await changes.next() { told.formUnion(next) }
            let paths = await database.paths
            guard round > 0 else {
                #expect(database.catalog.listing(for: paths) == nil, "no client connected yet: no catalog made")
                continue
            }
            let listing = try #require(database.catalog.listing(for: paths), "round \(round)")
            #expect(database.catalog.isCurrent(listing, at: try await library.edition()), "round \(round): told before the catalog was made")
        }
        keeping.cancel()
        _ = await keeping.result
    }
}

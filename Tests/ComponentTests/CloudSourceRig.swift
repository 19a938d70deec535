import Daemon
import Foundation
import Library
import Loader
import Model
import SourceTypes
import Testing
import TestSupport

/// What the tests of a cloud source (yandex-disk, onedrive) run it with: a scratch folder for the
/// cache, the library and the token file, loaders and libraries made there, and the source read
/// from a config text as a user writes it.
struct CloudSourceRig {
    let folder: URL

    init() throws {
        folder = try Fixtures.shared.scratchDirectory()
    }

    /// The source `name` of a `[[source]]` text; `token` is written to `<name>.token` first, for a
    /// `token_file` to name.
    func source(_ name: String, token: String, config: (URL) -> String) throws -> any SourceType {
        let tokenFile = folder.appendingPathComponent("\(name).token")
        try token.write(to: tokenFile, atomically: true, encoding: .utf8)
        return try #require(try Configuration.parse(config(tokenFile), relativeTo: folder).sources.source(named: name))
    }

    /// A loader with a cache of its own, or the one named `cache` (to be replayed from).
    func loader(_ source: any SourceType, cache: String = UUID().uuidString) -> LoaderActor {
        LoaderActor(settings: LoaderSettings(cacheDirectory: folder.appendingPathComponent(cache)), sources: SourceSet([source]))
    }

    func library() async throws -> LibraryActor {
        let library = LibraryActor()
        try await library.openDatabase(at: folder.appendingPathComponent("library-\(UUID().uuidString).sqlite"))
        return library
    }

    /// Every file name under the rig's folder (cache entries among them).
    var fileNames: [String] {
        FileManager.default.subpaths(atPath: folder.path) ?? []
    }

    /// The cache named `cache`, to look into.
    func cache(_ cache: String = "cache") -> CacheInspector {
        CacheInspector(cacheDirectory: folder.appendingPathComponent(cache))
    }

    /// Plays `location` as the player does — opened, a seek to ¾ (5000 bytes), then all of it —
    /// with a loader of its own on the cache `cache`, expecting `origin`'s bytes.
    func playWithSeek(_ source: any SourceType, _ location: TrackLocation, origin: Data, cache: String = "cache") async throws {
        let loader = loader(source, cache: cache)
        let track = try await loader.open(location)
        #expect(track.length == Int64(origin.count))
        let offset = origin.count * 3 / 4
        #expect(try await track.read(at: offset, count: 5000) == Array(origin[offset..<offset + 5000]))
        #expect(try await track.readWhole() == origin)
        await loader.shutdown()
    }

    /// Reads the first `count` bytes of `location` with a loader of its own on `cache`.
    func readHead(_ source: any SourceType, _ location: TrackLocation, _ count: Int, of origin: Data, cache: String = "cache") async throws {
        let loader = loader(source, cache: cache)
        #expect(try await loader.bytes(in: 0..<Int64(count), of: location) == Array(origin[0..<count]))
        await loader.shutdown()
    }

    /// Reads `location` whole with a loader of its own on `cache`, expecting `origin`. After a
    /// change on the server the copy opened as the change is found may fail as changed (the
    /// player opens it again then) — it never mixes the two versions — so `changed` reads twice.
    func readWhole(_ source: any SourceType, _ location: TrackLocation, expecting origin: Data, cache: String = "cache",
                   changed: Bool = false) async throws {
        let loader = loader(source, cache: cache)
        if changed {
            do {
                #expect(try await loader.open(location).readWhole() == origin)
            } catch LoaderError.changedOnServer {}
        }
        #expect(try await loader.open(location).readWhole() == origin)
        await loader.shutdown()
    }
}

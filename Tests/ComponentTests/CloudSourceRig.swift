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
}

import Config
import Foundation
import Library
import Loader
import SourceTypes
import TestSupport

/// What the tests of a cloud source type share (Yandex.Disk, Dropbox, OneDrive): an emulator, and a scratch
/// folder for caches, libraries and token files, with loaders and libraries made in it.
protocol CloudTestRig {
    associatedtype Server: EmulatedCloud
    var server: Server { get }
    var folder: URL { get }
}

/// A rig for one source of a cloud type, which `CloudSourceChecks` checks.
protocol CloudSourceRig: CloudTestRig {
    /// The source under test, reading `path` with its token from a file (or `token` instead),
    /// `pageSize` entries a listing page.
    func source(token: String?, path: String, pageSize: Int) throws -> any SourceType
}

extension CloudTestRig {
    /// A loader of `sources` with a cache of its own, or the one named `cache` (to be replayed from).
    func loader(_ sources: [any SourceType], cache: String = UUID().uuidString) -> LoaderActor {
        LoaderActor(settings: LoaderSettings(cacheDirectory: folder.appendingPathComponent(cache)), sources: SourceSet(sources))
    }

    func loader(_ source: any SourceType, cache: String = UUID().uuidString) -> LoaderActor {
        loader([source], cache: cache)
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

    /// The one source a `[[source]]` table makes, its token in a file of the rig (`NAME.token`).
    func source(_ table: String, named name: String, token: String) throws -> any SourceType {
        let tokenFile = folder.appendingPathComponent("\(name).token")
        try token.write(to: tokenFile, atomically: true, encoding: .utf8)
        let text = table + "\ntoken_file = \"\(tokenFile.path)\"\n"
        guard let source = try LoaderConfiguration.parse(text, relativeTo: folder).sources.source(named: name) else {
            throw TestSupportError("no source \(name)")
        }
        return source
    }

    /// Where the rig's logins keep their tokens.
    var store: TokenStore { TokenStore(directory: folder.appendingPathComponent("data/cloudplayerd/tokens")) }

    /// The server's sources: the first, which logs in, keeping its tokens in the rig's store.
    func sources() throws -> [any SourceType] {
        var all = try LoaderConfiguration.parse(server.sourcesText, relativeTo: folder).sources.all
        guard var first = all.first as? (any SourceType & CloudAccountSource) else { throw TestSupportError("the first source does not log in") }
        first.account.tokenStore = store
        all[0] = first
        return all
    }

    /// The OAuth client of the first source, through `proxy`.
    func client(proxy: ProxyRules = .direct) throws -> OAuthClient {
        guard let first = try sources().first as? (any SourceType & CloudAccountSource), let settings = first.account.oauth else {
            throw TestSupportError("the first source does not log in")
        }
        return try OAuthClient(source: first.name, settings: settings, readTimeout: 5, proxy: proxy)
    }

    /// A loader of all the server's sources, with a cache of its own.
    func loader() throws -> LoaderActor {
        loader(try sources())
    }
}

import Base
import Config
import Foundation
import Library
import Loader
import Model
import SourceTypes
import Testing
import TestSupport

/// The seam a source type plugs into: it reads its own keys of a `[[source]]` table, and opens as
/// a storage the scanner walks like any other and an input the loader reads.
@Suite struct SourceTypeTests {
    private let directory = URL(fileURLWithPath: "/home/anna/.config/cloudplayerd")

    @Test("every type reads its own keys and refuses others, naming the source and the line",
          arguments: [
            ("name = \"a\"\ntype = \"local\"\npath = \"~/Music\"\nurl = \"https://x/\"\n", 5, "source 'a'.url"),
            ("name = \"a\"\ntype = \"webdav\"\nurl = \"https://x/\"\npath = \"~/Music\"\n", 5, "source 'a'.path"),
            ("name = \"a\"\ntype = \"feed\"\n", 1, "source 'a'.url"),
            ("name = \"a\"\ntype = \"local\"\n", 1, "source 'a'.path"),
            ("name = \"a\"\ntype = \"http\"\nurl = \"https://x/\"\ntoken = \"t\"\ntoken_file = \"f\"\n", 6, "source 'a'.token"),
            ("name = \"a\"\ntype = \"gopher\"\n", 3, "source 'a'.type"),
            ("name = \"a\"\ntype = \"dropbox\"\n", 1, "source 'a'.token"),
            ("name = \"a\"\ntype = \"dropbox\"\nclient_id = \"k\"\nredirect_port = 0\n", 5, "source 'a'.redirect_port"),
            ("name = \"a\"\ntype = \"yandex-disk\"\n", 1, "source 'a'.token"),
            ("name = \"a\"\ntype = \"yandex-disk\"\ntoken = \"t\"\nauth_url = \"https://x/\"\n", 5, "source 'a'.auth_url"),
            ("name = \"a\"\ntype = \"onedrive\"\n", 1, "source 'a'.token"),
            ("name = \"a\"\ntype = \"onedrive\"\nclient_id = \"c\"\ntenant = \"a/b\"\n", 5, "source 'a'.tenant"),
            ("name = \"a\"\ntype = \"onedrive\"\ntoken = \"t\"\npage_size = 0\n", 5, "source 'a'.page_size"),
            ("name = \"a\"\ntype = \"google-drive\"\n", 1, "source 'a'.token"),
            ("name = \"a\"\ntype = \"google-drive\"\ntoken = \"t\"\npath = \"/M\"\nfolder_id = \"x\"\n", 6, "source 'a'.folder_id"),
            ("name = \"a\"\ntype = \"google-drive\"\ntoken = \"t\"\nfolder_id = \"a/b\"\n", 5, "source 'a'.folder_id"),
            ("name = \"a\"\ntype = \"box\"\n", 1, "source 'a'.token"),
            ("name = \"a\"\ntype = \"box\"\nclient_id = \"c\"\n", 4, "source 'a'.client_id"),
            ("name = \"a\"\ntype = \"box\"\ntoken = \"t\"\nfolder_id = \"12x\"\n", 5, "source 'a'.folder_id"),
            ("name = \"a\"\ntype = \"box\"\ntoken = \"t\"\npath = \"/M\"\nfolder_id = \"1\"\n", 6, "source 'a'.folder_id"),
          ])
    func ownKeys(_ table: String, line: Int, key: String) {
        #expect {
            try LoaderConfiguration.parse("[[source]]\n" + table, relativeTo: directory)
        } throws: { error in
            guard let error = error as? ConfigError else { return false }
            return error.line == line && error.key == key
        }
    }

    @Test("a cloud drive's folder is spelled as its API names it: a leading slash, no trailing one, the root as `/` (Dropbox: \"\")",
          arguments: [
            ("yandex-disk", "disk:/Music/", "/Music"), ("yandex-disk", "disk:", "/"), ("yandex-disk", nil, "/"),
            ("onedrive", "Music//", "/Music"), ("onedrive", "/", "/"), ("onedrive", nil, "/"),
            ("google-drive", "Music/Live", "/Music/Live"), ("google-drive", "//", "/"),
            ("dropbox", "Music/", "/Music"), ("dropbox", "/", ""), ("dropbox", nil, ""),
            ("box", "Music/", "/Music"), ("box", nil, "/"),
          ])
    func cloudFolderPath(_ type: String, path: String?, spelled: String) throws {
        let text = "[[source]]\nname = \"a\"\ntype = \"\(type)\"\ntoken = \"t\"\n" + (path.map { "path = \"\($0)\"\n" } ?? "")
        let source = try #require(try LoaderConfiguration.parse(text, relativeTo: directory).sources.source(named: "a"))
        let folder: String? = switch source {
        case let source as YandexDiskSource: source.path
        case let source as OneDriveSource: source.path
        case let source as GoogleDriveSource: source.path
        case let source as DropboxSource: source.path
        case let source as BoxSource: source.path
        default: nil
        }
        #expect(folder == spelled)
    }

    @Test("a type from outside the four, added by one line, is configured from its own keys and scanned like any other")
    func pluggedIn() async throws {
        let text = """
            [[source]]
            name = "mem"
            type = "memory"
            tracks = 3
            """
        let configuration = try LoaderConfiguration.parse(text, relativeTo: directory, types: SourceTypes.all + [MemorySource.self])
        #expect((configuration.sources.source(named: "mem") as? MemorySource)?.tracks == 3)
        #expect(throws: ConfigError.self) { try LoaderConfiguration.parse(text, relativeTo: directory) }

        let folder = try Fixtures.shared.scratchDirectory()
        let loader = LoaderActor(settings: LoaderSettings(cacheDirectory: folder), sources: configuration.sources)
        let library = LibraryActor()
        try await library.openDatabase(at: folder.appendingPathComponent("library.sqlite"))
        let report = try #require(await library.scan(["mem"], loader: loader).first)
        #expect(!report.failed && report.tracks == 3 && report.tagsRead == 0, "\(report)")
        let tricky = TrackLocation(source: "mem", key: "a/../2.mp3")
        let track = try #require(try await library.track(at: tricky))
        #expect(track.title == "Track 2" && track.source == "mem" && track.url == tricky.uri)
        #expect(try await library.track(at: TrackLocation(source: "mem", key: "2.mp3")) == nil)
        await loader.shutdown()
    }

    @Test("a reload opens every source again when next used, its settings changed or not (its secrets are read anew); a source taken out is gone")
    func reloadOpensAgain() async throws {
        let opens = OpenCounter()
        func counted(_ name: String, _ tracks: Int) -> CountedSource {
            CountedSource(source: MemorySource(name: name, tracks: tracks), opens: opens)
        }
        let settings = LoaderSettings(cacheDirectory: try Fixtures.shared.scratchDirectory())
        let loader = LoaderActor(settings: settings, sources: SourceSet([counted("a", 1), counted("b", 2)]))
        _ = try await loader.storage(of: "a")
        _ = try await loader.storage(of: "b")
        _ = try await loader.storage(of: "a")
        #expect(opens.names == ["a", "b"], "an opened source is kept between uses")

        await loader.reload(settings: settings, sources: SourceSet([counted("a", 1), counted("b", 2)]))
        _ = try await loader.storage(of: "a")
        _ = try await loader.storage(of: "b")
        _ = try await loader.storage(of: "b")
        #expect(opens.names == ["a", "b", "a", "b"], "equal sources open again, once")

        await loader.reload(settings: settings, sources: SourceSet([counted("b", 2)]))
        await #expect(throws: LoaderError.self) { try await loader.storage(of: "a") }
        await loader.shutdown()
    }
}

/// Counts the opens of sources, by name.
private final class OpenCounter: Sendable {
    private let opened = Locked<[String]>([])
    var names: [String] { opened.withLock { $0 } }
    func record(_ name: String) { opened.withLock { $0.append(name) } }
}

/// A `MemorySource` that records each open; equal when its source is (the counter is no setting).
private struct CountedSource: SourceType, Equatable {
    static let typeName = "counted"
    let source: MemorySource
    let opens: OpenCounter

    static func == (a: CountedSource, b: CountedSource) -> Bool { a.source == b.source }

    static func configure(_ section: ConfigSection) throws(ConfigError) -> CountedSource {
        throw section.error("type", "only made by tests")
    }

    var name: String { source.name }
    var root: URL? { nil }
    var shownLocation: String { "counted" }
    var isScannable: Bool { true }

    func open(_ environment: SourceEnvironment) throws -> Source {
        opens.record(name)
        return try source.open(environment)
    }
}

/// A source of made-up tracks, listed with their tags: what a provider with its own metadata
/// (Subsonic, say) looks like to the scanner.
private struct MemorySource: SourceType, Equatable {
    static let typeName = "memory"
    let name: String
    let tracks: Int

    static func configure(_ section: ConfigSection) throws(ConfigError) -> MemorySource {
        try section.allow(["tracks"])
        guard case .integer(let count, _)? = section.table["tracks"] else { throw section.error("tracks", "missing") }
        return MemorySource(name: section.name, tracks: Int(count))
    }

    var root: URL? { nil }
    var shownLocation: String { "memory" }
    var isScannable: Bool { true }

    func open(_ environment: SourceEnvironment) throws -> Source {
        Source(storage: Storage(source: name, count: tracks), input: .disk)
    }

    struct Storage: MediaStorage {
        let source: String
        let count: Int

        var root: StorageFolder { StorageFolder(location: TrackLocation(source: source, key: "/"), name: source) }

        func list(_ folder: StorageFolder, ifChangedSince version: String?) async throws -> StorageListing? {
            var listing = StorageListing()
            listing.feedTitle = "Memory"
            listing.files = (1...count).map { number in
                StorageFile(location: TrackLocation(source: source, key: "a/../\(number).mp3"), name: "\(number).mp3",
                            listed: ListedTrack(metadata: TrackMetadata(tags: TrackTags(title: "Track \(number)"))))
            }
            return listing
        }
    }
}

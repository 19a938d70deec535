import ComponentTestSupport
import Foundation
import Library
import Loader
import Model
import SourceTypes
import Testing
import TestSupport

/// `type = "box"` against the Box emulator (Tests/CloudEmulators/box.py, written from Box's
/// developer documentation): paths walked from folder 0 by name (Box has no path lookup), items
/// paged with `usemarker`/`next_marker` and only the `fields` asked, `/content?version=` answering
/// 302 to a download host on another origin that refuses an Authorization header and expires,
/// versions from `sha1` and `file_version.id`, 429 with `retry-after`, Box's error bodies.
@Suite(.timeLimit(.minutes(3)))
struct BoxSourceTests {
    struct Rig: CloudSourceRig {
        let server: BoxTestServer
        let folder: URL

        static func start() async throws -> Rig {
            Rig(server: try await BoxTestServer(), folder: try Fixtures.shared.scratchDirectory())
        }

        /// The source "box" (its token in a file; `token` overrides the right one), rooted at
        /// `path`, or at the folder `folderID` instead.
        func source(token: String? = nil, path: String = "/Music", pageSize: Int = 2) throws -> any SourceType {
            try source(token: token, path: path, pageSize: pageSize, folderID: nil)
        }

        func source(token: String? = nil, path: String = "/Music", pageSize: Int = 2, folderID: String?) throws -> any SourceType {
            try source("""
                [[source]]
                name = "box"
                type = "box"
                \(folderID.map { "folder_id = \"\($0)\"" } ?? "path = \"\(path)\"")
                api_url = "\(server.boxAPI.absoluteString)"
                page_size = \(pageSize)
                """, named: "box", token: token ?? server.token)
        }

        /// The requests for a file's `/content` (each one a new download URL).
        func contentRequests() async throws -> [CloudExchange] {
            try await server.log().filter { $0.path.contains("/content") }
        }
    }

    @Test("a path is walked from folder 0 by name; items page by marker (usemarker, limit, next_marker) with the fields asked; web links left out; tags by ranged reads; a rescan reads none again")
    func scan() async throws {
        let rig = try await Rig.start()
        try "".write(to: rig.server.files.appendingPathComponent("Music/site.weblink", isDirectory: false).creatingFolder(), atomically: true, encoding: .utf8)
        let log = try await rig.checkScan()
        #expect(log.contains { $0.path.hasPrefix("/2.0/folders/0/items?") }, "the root listed to find /Music")
        #expect(log.contains { $0.path.contains("usemarker=true") && $0.path.contains("limit=2") && $0.path.contains("fields=id%2Ctype%2Cname%2Csize%2Csha1%2Cfile_version") })
        #expect(log.contains { $0.path.contains("marker=") && $0.path.contains("&marker=") }, "next_marker is followed")
        #expect(log.allSatisfy { $0.status < 400 }, "\(log.filter { $0.status >= 400 })")
        #expect(log.filter { $0.host == "api" }.allSatisfy { $0.authorized }, "the API gets the token")
        let downloads = log.filter { $0.host == "download" }
        #expect(!downloads.isEmpty && downloads.allSatisfy { $0.range != nil && !$0.authorized }, "only ranged reads, without the token")
    }

    @Test("folder_id names the folder scanned (its tracks' paths start below it); a folder_id that is no number is one clear config error")
    func folderID() async throws {
        let rig = try await Rig.start()
        try rig.server.publish(try await Fixtures.shared.url(.vbrMP3), as: "Music/Album/a.mp3")
        // The ids Box shows in a folder's address: the emulator gives them on first sight, from the root down.
        let first = rig.loader(try rig.source())
        _ = try await first.open(TrackLocation(source: "box", key: "Music/Album/a.mp3"))
        await first.shutdown()
        let listings = try await rig.server.log().filter { $0.path.hasPrefix("/2.0/folders/") }.map { $0.path.split(separator: "/")[2] }
        let album = try #require(listings.last.map(String.init))
        let source = try rig.source(folderID: album)
        let loader = rig.loader(source)
        let report = try #require(await rig.library().scan(["box"], loader: loader).first)
        await loader.shutdown()
        #expect(!report.failed && report.tracks == 1, "\(report)")
        #expect(source.shownLocation.hasPrefix("box:folder \(album) at "))
        #expect(throws: (any Error).self) { _ = try rig.source(folderID: "12ab") }
    }

    @Test("a track plays with a seek, byte for byte, through one download URL on another port fetched without the token; a replay from the cache fetches 0 bytes")
    func playSeekReplay() async throws {
        let log = try await Rig.start().checkPlaySeekReplay("Music/Long Mix/long track.mp3")
        // The download host refuses any request with an Authorization header (401): all 206 means none had one.
        #expect(log.filter { $0.host == "download" }.allSatisfy { !$0.authorized }, "no token to the download host")
        let contents = log.filter { $0.path.contains("/content") }
        #expect(contents.count == 1 && contents.allSatisfy { $0.status == 302 && $0.authorized && $0.path.contains("?version=") },
                "one URL, of the version described, for the whole play: \(contents.map(\.path))")
    }

    @Test("a seek into a half-cached track fetches only the holes")
    func seekFetchesHoles() async throws {
        try await Rig.start().checkSeekFetchesHoles()
    }

    @Test("a download URL that expires mid-play means /content again; the track reads to its end and no cached byte is fetched again")
    func linkExpiry() async throws {
        let rig = try await Rig.start()
        let originFile = try await Fixtures.shared.url(.longMP3)
        let origin = try Data(contentsOf: originFile)
        try rig.server.publish(originFile, as: "Music/long.mp3")
        let location = TrackLocation(source: "box", key: "Music/long.mp3")
        let loader = rig.loader(try rig.source())
        let half = origin.count / 2
        #expect(try await loader.bytes(in: 0..<Int64(half), of: location) == Array(origin[0..<half]))
        try await rig.server.control(#"{"expire_links": true, "clear_log": true}"#)
        #expect(try await loader.open(location).readWhole() == origin)
        await loader.shutdown()
        let log = try await rig.server.log()
        #expect(log.contains { $0.host == "download" && $0.status == 403 }, "the old URL answered 403")
        #expect(try await rig.contentRequests().count >= 1, "/content was asked again")
        #expect(log.filter { $0.host == "download" }.reduce(0) { $0 + $1.bytes } <= origin.count - half + origin.count / 50, "cached bytes kept")
    }

    @Test("a file changed in Box (a new sha1 and file_version) is never mixed with the cached copy of the old one")
    func changedFile() async throws {
        try await Rig.start().checkChangedFile()
        try await Rig.start().checkChangedWhileReading()
    }

    @Test("429 with retry-after is waited out, as long as it asks, and the scan completes")
    func busy() async throws {
        try await Rig.start().checkBusy()
    }

    @Test("a folder answered with broken JSON is one clear problem naming the source and the folder; the scan goes on with the rest")
    func badJSON() async throws {
        try await Rig.start().checkBadJSON(words: "JSON that is not a page of folder items")
    }

    @Test("a refused token fails the scan with one line that names the source and says what to do; no token in errors or file names")
    func refusedToken() async throws {
        let rig = try await Rig.start()
        try await rig.checkRefusedToken("box-wrong-\(UUID().uuidString.prefix(8))", words: "box: cannot list /Music: the token was refused (HTTP 401",
                                        token: rig.server.token)
    }

    @Test("a folder that is gone fails its scan with one line naming the source and the folder; a file gone since (404 not_found) fails its play likewise")
    func gone() async throws {
        try await Rig.start().checkGone(words: "not in Box")
    }

    @Test("access_denied_insufficient_permissions and a download host that refuses are each one line naming the source and the path; the scan goes on")
    func refusals() async throws {
        let rig = try await Rig.start()
        try rig.server.publish(try await Fixtures.shared.url(.vbrMP3), as: "Music/Secret/a.mp3")
        try rig.server.publish(try await Fixtures.shared.url(.cbrMP3), as: "Music/b.mp3")
        try await rig.server.control(#"{"forbid": "Secret"}"#)
        let loader = rig.loader(try rig.source())
        let report = try #require(await rig.library().scan(["box"], loader: loader).first)
        await loader.shutdown()
        #expect(!report.failed && report.tracks == 1, "\(report)")
        #expect(report.problems.contains { $0.contains("box: /Music/Secret: access refused (HTTP 403 access_denied_insufficient_permissions") }, "\(report)")

        try await rig.server.control(#"{"forbid_download": "b.mp3", "clear_log": true}"#)
        let reader = rig.loader(try rig.source())
        let refusal = await #expect(throws: LoaderError.self) { _ = try await reader.open(TrackLocation(source: "box", key: "Music/b.mp3")).readWhole() }
        await reader.shutdown()
        #expect("\(String(describing: refusal))".contains("box: /Music/b.mp3: the download host refused a new download URL (HTTP 403)"),
                "\(String(describing: refusal))")
    }

    @Test("no token or download URL in locations, cache file names, scan reports or errors")
    func noCredentialsAnywhere() async throws {
        let rig = try await Rig.start()
        try rig.server.publish(try await Fixtures.shared.url(.vbrMP3), as: "Music/a.mp3")
        let loader = rig.loader(try rig.source(), cache: "cache")
        let library = try await rig.library()
        let report = try #require(await library.scan(["box"], loader: loader).first)
        _ = try await loader.open(TrackLocation(source: "box", key: "Music/a.mp3")).readWhole()
        await loader.shutdown()
        let tracks = try await library.tracks(TrackFilter(source: "box"))
        #expect(tracks.map(\.url) == ["cloudplayer://box/Music/a.mp3"])
        let links = try await rig.server.log().filter { $0.host == "download" }.compactMap { $0.path.split(separator: "/").dropLast().last.map(String.init) }
        #expect(!links.isEmpty)
        let everything = rig.fileNames.joined(separator: "\n") + "\(report)" + tracks.map(\.url).joined()
        #expect(!everything.contains(rig.server.token))
        #expect(links.allSatisfy { !everything.contains($0) })
    }
}

private extension URL {
    /// This file's URL, its folder made.
    func creatingFolder() throws -> URL {
        try FileManager.default.createDirectory(at: deletingLastPathComponent(), withIntermediateDirectories: true)
        return self
    }
}

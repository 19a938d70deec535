import ComponentTestSupport
import Foundation
import Library
import Loader
import Model
import SourceTypes
import Testing
import TestSupport

/// `type = "onedrive"` against the Microsoft Graph emulator (Tests/CloudEmulators/onedrive.py,
/// written from Graph's public docs): children paged by `@odata.nextLink`, `/content` answering
/// 302 to a pre-authenticated URL on another host that refuses an Authorization header and
/// expires, versions from hashes or `cTag`, 429, broken JSON, Graph's error bodies.
@Suite(.timeLimit(.minutes(3)))
struct OneDriveSourceTests {
    struct Rig: CloudSourceRig {
        let server: OneDriveTestServer
        let folder: URL

        static func start() async throws -> Rig {
            Rig(server: try await OneDriveTestServer(), folder: try Fixtures.shared.scratchDirectory())
        }

        /// The source "od" (its token in a file; `token` overrides the right one), rooted at `path`.
        func source(token: String? = nil, path: String = "/Music", pageSize: Int = 2) throws -> any SourceType {
            try source("""
                [[source]]
                name = "od"
                type = "onedrive"
                path = "\(path)"
                api_url = "\(server.graphURL.absoluteString)"
                page_size = \(pageSize)
                """, named: "od", token: token ?? server.token)
        }

        /// The requests for a file's `/content` (each one a new pre-authenticated URL).
        func contentRequests() async throws -> [CloudExchange] {
            try await server.log().filter { $0.path.hasSuffix("/content") }
        }
    }

    @Test("a folder scans page by page ($top, @odata.nextLink), recursing into folders; tags by ranged reads; locations are paths; a rescan reads none again")
    func scan() async throws {
        let log = try await Rig.start().checkScan()
        #expect(log.contains { $0.path.contains("root:/Music:/children?%24top=2") }, "the first page by path, $top=2")
        #expect(log.contains { $0.path.contains("%24skiptoken=2") }, "@odata.nextLink is followed")
        #expect(log.allSatisfy { $0.status < 400 }, "\(log.filter { $0.status >= 400 })")
        #expect(log.filter { $0.host == "api" }.allSatisfy { $0.authorized }, "Graph gets the token")
        let downloads = log.filter { $0.host == "download" }
        #expect(!downloads.isEmpty && downloads.allSatisfy { $0.range != nil && !$0.authorized }, "only ranged reads, without the token")
    }

    @Test("a track plays with a seek, byte for byte, through one pre-authenticated URL fetched without the token; a replay from the cache fetches 0 bytes")
    func playSeekReplay() async throws {
        let log = try await Rig.start().checkPlaySeekReplay("Music/Long Mix/long track.mp3")
        // The download host refuses any request with an Authorization header (401): all 206 means none had one.
        #expect(log.filter { $0.host == "download" }.allSatisfy { !$0.authorized }, "no token to the download host")
        let contents = log.filter { $0.path.hasSuffix("/content") }
        #expect(contents.count == 1 && contents.allSatisfy { $0.status == 302 && $0.authorized }, "one URL for the whole play")
    }

    @Test("a seek into a half-cached track fetches only the holes")
    func seekFetchesHoles() async throws {
        try await Rig.start().checkSeekFetchesHoles()
    }

    @Test("a pre-authenticated URL that expires mid-play (401, 403, 410) means /content again; the track reads to its end and no cached byte is fetched again")
    func linkExpiry() async throws {
        let rig = try await Rig.start()
        let originFile = try await Fixtures.shared.url(.longMP3)
        let origin = try Data(contentsOf: originFile)
        try rig.server.publish(originFile, as: "Music/long.mp3")
        let location = TrackLocation(source: "od", key: "Music/long.mp3")
        for status in [401, 403, 410] {
            try await rig.server.control(#"{"link_status": \#(status), "clear_log": true}"#)
            let loader = rig.loader(try rig.source())
            let half = origin.count / 2
            #expect(try await loader.bytes(in: 0..<Int64(half), of: location) == Array(origin[0..<half]))
            // Expired now (no clock involved: a busy machine cannot make a fresh link old).
            try await rig.server.control(#"{"expire_links": true}"#)
            #expect(try await loader.open(location).readWhole() == origin)
            await loader.shutdown()
            let log = try await rig.server.log()
            #expect(log.contains { $0.host == "download" && $0.status == status }, "the old URL answered \(status)")
            #expect(try await rig.contentRequests().count >= 2, "/content was asked again")
            let bytes = log.filter { $0.host == "download" }.reduce(0) { $0 + $1.bytes }
            #expect(bytes <= origin.count + origin.count / 50, "cached bytes kept: \(bytes) of \(origin.count)")
        }
    }

    @Test("a file changed in the drive (a new sha256Hash, or without hashes a new cTag) is never mixed with the cached copy of the old one")
    func changedFile() async throws {
        try await Rig.start().checkChangedFile()
        try await Rig.start().checkChangedWhileReading()
        let rig = try await Rig.start()
        try await rig.server.control(#"{"hashes": false}"#)
        try await rig.checkChangedFile()
    }

    @Test("429 and 503 with Retry-After are waited out, as long as they ask, and the scan completes")
    func busy() async throws {
        let rig = try await Rig.start()
        try rig.server.publish(try await Fixtures.shared.url(.vbrMP3), as: "Music/a.mp3")
        try await rig.server.control(#"{"busy": [1, [503, 1]]}"#)
        let loader = rig.loader(try rig.source())
        let library = try await rig.library()
        let start = ContinuousClock.now
        let report = try #require(await library.scan(["od"], loader: loader).first)
        let took = start.duration(to: .now)
        await loader.shutdown()
        #expect(!report.failed && report.tracks == 1 && report.problems.isEmpty, "\(report)")
        let log = try await rig.server.log()
        #expect(log.filter { $0.status == 429 }.count == 1 && log.filter { $0.status == 503 }.count == 1)
        #expect(took >= .seconds(2), "two waits of Retry-After: 1")
    }

    @Test("a folder answered with broken JSON is one clear problem naming the source and the folder; the scan goes on with the rest")
    func badJSON() async throws {
        try await Rig.start().checkBadJSON(words: "JSON that is not a page of children")
    }

    @Test("a refused token fails the scan with one line that names the source and says what to do; no token in errors or file names")
    func refusedToken() async throws {
        let rig = try await Rig.start()
        try await rig.checkRefusedToken("EwB-wrong-\(UUID().uuidString.prefix(8))", words: "od: cannot list /Music: the token was refused (HTTP 401 InvalidAuthenticationToken",
                                        token: rig.server.token)
    }

    @Test("a folder that is gone (404 itemNotFound) fails its scan with one line naming the source and the folder; a file gone since fails its play likewise")
    func gone() async throws {
        try await Rig.start().checkGone(words: "not in the drive (HTTP 404 itemNotFound")
    }

    @Test("accessDenied, a file gone since and a download host that refuses are each one line naming the source and the path; the scan goes on")
    func refusals() async throws {
        let rig = try await Rig.start()
        try rig.server.publish(try await Fixtures.shared.url(.vbrMP3), as: "Music/Secret/a.mp3")
        try rig.server.publish(try await Fixtures.shared.url(.cbrMP3), as: "Music/b.mp3")
        let library = try await rig.library()

        try await rig.server.control(#"{"forbid": "Secret"}"#)
        let loader = rig.loader(try rig.source())
        let report = try #require(await library.scan(["od"], loader: loader).first)
        #expect(!report.failed && report.tracks == 1, "\(report)")
        #expect(report.problems.contains { $0.contains("od: /Music/Secret: access refused (HTTP 403 accessDenied") }, "\(report)")
        try FileManager.default.removeItem(at: rig.server.drive.appendingPathComponent("Music/b.mp3"))
        let error = await #expect(throws: LoaderError.self) { _ = try await loader.open(TrackLocation(source: "od", key: "Music/b.mp3")).readWhole() }
        await loader.shutdown()
        #expect("\(String(describing: error))".contains("od: /Music/b.mp3: not in the drive (HTTP 404 itemNotFound"), "\(String(describing: error))")

        // The download host refuses a file's URL as soon as Graph made it: one clear line.
        try rig.server.publish(try await Fixtures.shared.url(.cbrMP3), as: "Music/c.mp3")
        try await rig.server.control(#"{"forbid_download": "c.mp3", "clear_log": true}"#)
        let reader = rig.loader(try rig.source())
        let refusal = await #expect(throws: LoaderError.self) { _ = try await reader.open(TrackLocation(source: "od", key: "Music/c.mp3")).readWhole() }
        await reader.shutdown()
        #expect("\(String(describing: refusal))".contains("od: /Music/c.mp3: the download host refused a new pre-authenticated URL (HTTP 403)"),
                "\(String(describing: refusal))")
        #expect(try await rig.contentRequests().count == 1, "a URL refused as soon as it was made is a refusal, not asked for again and again")
    }

    @Test("no token or download URL in locations, cache file names, scan reports or errors")
    func noCredentialsAnywhere() async throws {
        let rig = try await Rig.start()
        try rig.server.publish(try await Fixtures.shared.url(.vbrMP3), as: "Music/a.mp3")
        try await rig.server.control(#"{"link_status": 410}"#)
        let loader = rig.loader(try rig.source(), cache: "cache")
        let library = try await rig.library()
        let report = try #require(await library.scan(["od"], loader: loader).first)
        _ = try await loader.open(TrackLocation(source: "od", key: "Music/a.mp3")).readWhole()
        await loader.shutdown()
        let tracks = try await library.tracks(TrackFilter(source: "od"))
        #expect(tracks.map(\.url) == ["cloudplayer://od/Music/a.mp3"])
        let links = try await rig.server.log().filter { $0.host == "download" }.compactMap { $0.path.components(separatedBy: "tempauth=").last }
        #expect(!links.isEmpty)
        let everything = rig.fileNames.joined(separator: "\n") + "\(report)" + tracks.map(\.url).joined()
        #expect(!everything.contains(rig.server.token))
        #expect(links.allSatisfy { !everything.contains($0) })
    }
}

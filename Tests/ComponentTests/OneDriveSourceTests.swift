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
    /// The emulator, and a folder for the cache, the library and the token file.
    struct Rig {
        let server: OneDriveTestServer
        let cloud: CloudSourceRig

        static func start() async throws -> Rig {
            Rig(server: try await OneDriveTestServer(), cloud: try CloudSourceRig())
        }

        var emulator: CloudEmulator { server.emulator }

        /// The source "od" (its token in a file; `token` overrides the right one), rooted at `path`.
        func source(token: String? = nil, path: String = "/Music", pageSize: Int = 2) throws -> any SourceType {
            try cloud.source("od", token: token ?? server.token) { tokenFile in
                """
                [[source]]
                name = "od"
                type = "onedrive"
                path = "\(path)"
                api_url = "\(server.apiURL.absoluteString)"
                token_file = "\(tokenFile.path)"
                page_size = \(pageSize)
                """
            }
        }

        /// The requests for a file's `/content` (each one a new pre-authenticated URL).
        func contentRequests() async throws -> [CloudEmulator.Exchange] {
            try await emulator.log().filter { $0.path.hasSuffix("/content") }
        }
    }

    @Test("a folder scans page by page ($top, @odata.nextLink), recursing into folders; tags by ranged reads; locations are paths; a rescan reads none again")
    func scan() async throws {
        let rig = try await Rig.start()
        let fixtures = Fixtures.shared
        try rig.server.publish(try await fixtures.url(.vbrMP3), as: "Music/Album/01 vbr.mp3")
        try rig.server.publish(try await fixtures.url(.opus), as: "Music/Album/02.opus")
        try rig.server.publish(try await fixtures.url(.flac), as: "Music/Other/Deeper/song.flac")
        try rig.server.publish(try await fixtures.url(.cbrMP3), as: "Music/top.mp3")
        try rig.server.publish(try await fixtures.url(.longMP3), as: "Music/long.mp3")
        try rig.server.publish(try await fixtures.url(.secondMP3), as: "Elsewhere/outside.mp3")

        let loader = rig.cloud.loader(try rig.source())
        let library = try await rig.cloud.library()
        let report = try #require(await library.scan(["od"], loader: loader).first)
        #expect(!report.failed && report.tracks == 5 && report.tagsRead == 5 && report.problems.isEmpty, "\(report)")
        #expect(report.bytesFetched <= 5 * 70 * 1024, "tags by ranged reads: \(report.bytesFetched) bytes")

        let vbr = try #require(try await library.track(at: TrackLocation(source: "od", key: "Music/Album/01 vbr.mp3")))
        #expect(vbr.title == "Vbr Title" && vbr.artist == "Some Artist" && vbr.url == "cloudplayer://od/Music/Album/01%20vbr.mp3")
        #expect(try await library.track(at: TrackLocation(source: "od", key: "Music/Other/Deeper/song.flac"))?.title == "FLAC Title")
        #expect(try await library.track(at: TrackLocation(source: "od", key: "Elsewhere/outside.mp3")) == nil, "outside the path")

        let log = try await rig.emulator.log()
        #expect(log.contains { $0.path.contains("root:/Music:/children?%24top=2") }, "the first page by path, $top=2")
        #expect(log.contains { $0.path.contains("%24skiptoken=2") }, "@odata.nextLink is followed")
        #expect(log.allSatisfy { $0.status < 400 }, "\(log.filter { $0.status >= 400 })")
        #expect(log.filter { $0.host == "api" }.allSatisfy { $0.authorized }, "Graph gets the token")
        let downloads = log.filter { $0.host == "download" }
        #expect(!downloads.isEmpty && downloads.allSatisfy { $0.range != nil && !$0.authorized }, "only ranged reads, without the token")

        try await rig.emulator.control(#"{"clear_log": true}"#)
        let again = try #require(await library.scan(["od"], loader: loader).first)
        #expect(!again.failed && again.tracks == 5 && again.tagsRead == 0, "\(again)")
        #expect(try await rig.emulator.downloadedBytes() == 0, "a rescan downloads nothing")
        await loader.shutdown()
    }

    @Test("a track plays with a seek, byte for byte, through one pre-authenticated URL fetched without the token; a replay from the cache fetches 0 bytes")
    func playSeekReplay() async throws {
        let rig = try await Rig.start()
        let originFile = try await Fixtures.shared.url(.longMP3)
        let origin = try Data(contentsOf: originFile)
        try rig.server.publish(originFile, as: "Music/Long Mix/long track.mp3")
        let location = TrackLocation(source: "od", key: "Music/Long Mix/long track.mp3")

        try await rig.cloud.playWithSeek(try rig.source(), location, origin: origin)
        let log = try await rig.emulator.log()
        let downloads = log.filter { $0.host == "download" }
        // The download host refuses any request with an Authorization header (401): all 206 means none had one.
        #expect(!downloads.isEmpty && downloads.allSatisfy { $0.status == 206 && $0.range != nil && !$0.authorized }, "ranged, no token")
        #expect(downloads.reduce(0) { $0 + $1.bytes } <= origin.count + origin.count / 50, "each byte about once")
        let contents = log.filter { $0.path.hasSuffix("/content") }
        #expect(contents.count == 1 && contents.allSatisfy { $0.status == 302 && $0.authorized }, "one URL for the whole play")
        #expect(try rig.cloud.cache().holdsWhole(origin))

        try await rig.emulator.control(#"{"clear_log": true}"#)
        try await rig.cloud.readWhole(try rig.source(), location, expecting: origin)
        #expect(try await rig.emulator.downloadedBytes() == 0, "a replay sends no byte of the track")
    }

    @Test("a seek into a half-cached track fetches only the holes")
    func seekFetchesHoles() async throws {
        let rig = try await Rig.start()
        let originFile = try await Fixtures.shared.url(.longMP3)
        let origin = try Data(contentsOf: originFile)
        try rig.server.publish(originFile, as: "Music/long.mp3")
        let location = TrackLocation(source: "od", key: "Music/long.mp3")
        let head = 300_000
        try await rig.cloud.readHead(try rig.source(), location, head, of: origin)
        #expect(try await rig.emulator.downloadedBytes() >= head)

        try await rig.emulator.control(#"{"clear_log": true}"#)
        try await rig.cloud.readWhole(try rig.source(), location, expecting: origin)
        let downloads = try await rig.emulator.log().filter { $0.host == "download" }
        #expect(!downloads.isEmpty && downloads.allSatisfy { $0.range.map { !$0.hasPrefix("bytes=0-") } ?? false }, "\(downloads.map(\.range))")
        #expect(downloads.reduce(0) { $0 + $1.bytes } <= origin.count - head + origin.count / 50, "the cached head is not fetched again")
    }

    @Test("a pre-authenticated URL that expires mid-play (401, 403, 410) means /content again; the track reads to its end and no cached byte is fetched again")
    func linkExpiry() async throws {
        let rig = try await Rig.start()
        let originFile = try await Fixtures.shared.url(.longMP3)
        let origin = try Data(contentsOf: originFile)
        try rig.server.publish(originFile, as: "Music/long.mp3")
        let location = TrackLocation(source: "od", key: "Music/long.mp3")
        for status in [401, 403, 410] {
            try await rig.emulator.control(#"{"link_ttl": 1, "link_status": \#(status), "clear_log": true}"#)
            let loader = rig.cloud.loader(try rig.source())
            let half = origin.count / 2
            #expect(try await loader.bytes(in: 0..<Int64(half), of: location) == Array(origin[0..<half]))
            try await Task.sleep(for: .milliseconds(1500))  // a lower bound: the URL is older than its 1 s
            #expect(try await loader.open(location).readWhole() == origin)
            await loader.shutdown()
            let log = try await rig.emulator.log()
            #expect(log.contains { $0.host == "download" && $0.status == status }, "the old URL answered \(status)")
            #expect(try await rig.contentRequests().count >= 2, "/content was asked again")
            let bytes = log.filter { $0.host == "download" }.reduce(0) { $0 + $1.bytes }
            #expect(bytes <= origin.count + origin.count / 50, "cached bytes kept: \(bytes) of \(origin.count)")
        }
    }

    @Test("a file changed in the drive (a new sha256Hash, or without hashes a new cTag) is never mixed with the cached copy of the old one")
    func changedFile() async throws {
        let rig = try await Rig.start()
        for hashes in [true, false] {
            try await rig.emulator.control(#"{"hashes": \#(hashes)}"#)
            let old = try Data(contentsOf: try await Fixtures.shared.url(.longMP3))
            let new = Data(old.reversed())
            try rig.server.publish(try await Fixtures.shared.url(.longMP3), as: "Music/long.mp3")
            let location = TrackLocation(source: "od", key: "Music/long.mp3")
            let cache = "cache-\(hashes)"
            try await rig.cloud.readHead(try rig.source(), location, 400_000, of: old, cache: cache)
            try new.write(to: rig.server.drive.appendingPathComponent("Music/long.mp3"))
            try await rig.cloud.readWhole(try rig.source(), location, expecting: new, cache: cache, changed: true)
            #expect(try rig.cloud.cache(cache).holdsWhole(new))
        }
    }

    @Test("429 and 503 with Retry-After are waited out, as long as they ask, and the scan completes")
    func busy() async throws {
        let rig = try await Rig.start()
        try rig.server.publish(try await Fixtures.shared.url(.vbrMP3), as: "Music/a.mp3")
        try await rig.emulator.control(#"{"busy": [1, [503, 1]]}"#)
        let loader = rig.cloud.loader(try rig.source())
        let library = try await rig.cloud.library()
        let start = ContinuousClock.now
        let report = try #require(await library.scan(["od"], loader: loader).first)
        let took = start.duration(to: .now)
        await loader.shutdown()
        #expect(!report.failed && report.tracks == 1 && report.problems.isEmpty, "\(report)")
        let log = try await rig.emulator.log()
        #expect(log.filter { $0.status == 429 }.count == 1 && log.filter { $0.status == 503 }.count == 1)
        #expect(took >= .seconds(2), "two waits of Retry-After: 1")
    }

    @Test("a folder answered with broken JSON is one clear problem naming the source and the folder; the scan goes on with the rest")
    func badJSON() async throws {
        let rig = try await Rig.start()
        try rig.server.publish(try await Fixtures.shared.url(.vbrMP3), as: "Music/Good/a.mp3")
        try rig.server.publish(try await Fixtures.shared.url(.cbrMP3), as: "Music/Broken/b.mp3")
        try rig.server.publish(try await Fixtures.shared.url(.opus), as: "Music/c.opus")
        try await rig.emulator.control(#"{"bad_json": "Broken"}"#)
        let loader = rig.cloud.loader(try rig.source())
        let library = try await rig.cloud.library()
        let report = try #require(await library.scan(["od"], loader: loader).first)
        await loader.shutdown()
        #expect(!report.failed && report.tracks == 2, "\(report)")
        let broken = report.problems.filter { $0.contains("/Music/Broken") }
        #expect(broken.count == 1 && broken.allSatisfy { $0.hasPrefix("od: ") && $0.contains("JSON that is not a page of children") }, "\(report.problems)")
        #expect(report.problems.allSatisfy { !$0.contains("/Music/Good") && !$0.contains("c.opus") })
    }

    @Test("Graph's errors — a refused token, itemNotFound, accessDenied — and a download host that refuses are one line naming the source and the path; the scan goes on")
    func refusals() async throws {
        let rig = try await Rig.start()
        try rig.server.publish(try await Fixtures.shared.url(.vbrMP3), as: "Music/Secret/a.mp3")
        try rig.server.publish(try await Fixtures.shared.url(.cbrMP3), as: "Music/b.mp3")
        let library = try await rig.cloud.library()

        let wrong = "EwB-wrong-\(UUID().uuidString.prefix(8))"
        let refused = rig.cloud.loader(try rig.source(token: wrong))
        let denied = try #require(await library.scan(["od"], loader: refused).first)
        await refused.shutdown()
        #expect(denied.failed && denied.problems.joined().contains("od: /Music: the token was refused (HTTP 401 InvalidAuthenticationToken"), "\(denied)")
        #expect(denied.problems.joined().contains("cloudplayerctl login od") && !denied.problems.joined().contains(wrong))

        let missing = rig.cloud.loader(try rig.source(path: "/Gone"))
        let gone = try #require(await library.scan(["od"], loader: missing).first)
        await missing.shutdown()
        #expect(gone.failed && gone.problems.joined().contains("od: /Gone: not in the drive (HTTP 404 itemNotFound"), "\(gone)")

        try await rig.emulator.control(#"{"forbid": "Secret"}"#)
        let loader = rig.cloud.loader(try rig.source())
        let report = try #require(await library.scan(["od"], loader: loader).first)
        #expect(!report.failed && report.tracks == 1, "\(report)")
        #expect(report.problems.contains { $0.contains("od: /Music/Secret: access refused (HTTP 403 accessDenied") }, "\(report)")
        try FileManager.default.removeItem(at: rig.server.drive.appendingPathComponent("Music/b.mp3"))
        let error = await #expect(throws: LoaderError.self) { _ = try await loader.open(TrackLocation(source: "od", key: "Music/b.mp3")).readWhole() }
        await loader.shutdown()
        #expect("\(String(describing: error))".contains("od: /Music/b.mp3: not in the drive (HTTP 404 itemNotFound"), "\(String(describing: error))")

        // The download host refuses a file's URL as soon as Graph made it: one clear line.
        try rig.server.publish(try await Fixtures.shared.url(.cbrMP3), as: "Music/c.mp3")
        try await rig.emulator.control(#"{"forbid_download": "c.mp3", "clear_log": true}"#)
        let reader = rig.cloud.loader(try rig.source())
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
        try await rig.emulator.control(#"{"link_ttl": 1, "link_status": 410}"#)
        let loader = rig.cloud.loader(try rig.source(), cache: "cache")
        let library = try await rig.cloud.library()
        let report = try #require(await library.scan(["od"], loader: loader).first)
        _ = try await loader.open(TrackLocation(source: "od", key: "Music/a.mp3")).readWhole()
        await loader.shutdown()
        let tracks = try await library.tracks(TrackFilter(source: "od"))
        #expect(tracks.map(\.url) == ["cloudplayer://od/Music/a.mp3"])
        let links = try await rig.emulator.log().filter { $0.host == "download" }.compactMap { $0.path.components(separatedBy: "tempauth=").last }
        #expect(!links.isEmpty)
        let everything = rig.cloud.fileNames.joined(separator: "\n") + "\(report)" + tracks.map(\.url).joined()
        #expect(!everything.contains(rig.server.token))
        #expect(links.allSatisfy { !everything.contains($0) })
    }
}

import Base
import ComponentTestSupport
import Foundation
import Library
import Loader
import Model
import SourceTypes
import Testing
import TestSupport

/// `type = "yandex-disk"` against the Yandex.Disk emulator (Tests/CloudEmulators/yandex_disk.py,
/// written from the API's public docs): listing pages, download links that expire, 429, broken
/// JSON, a link that answers a web page, a refused token.
@Suite(.timeLimit(.minutes(3)))
struct YandexDiskSourceTests {
    struct Rig: CloudSourceRig {
        let server: YandexDiskTestServer
        let folder: URL

        static func start() async throws -> Rig {
            Rig(server: try await YandexDiskTestServer(), folder: try Fixtures.shared.scratchDirectory())
        }

        /// The source "yd" (its token in a file; `token` overrides the right one), rooted at `path`.
        func source(token: String? = nil, path: String = "/Music", pageSize: Int = 2) throws -> any SourceType {
            try source("""
                [[source]]
                name = "yd"
                type = "yandex-disk"
                path = "\(path)"
                api_url = "\(server.apiURL.absoluteString)"
                page_size = \(pageSize)
                """, named: "yd", token: token ?? server.token)
        }
    }

    @Test("a folder scans page by page, recursing into folders, tags read by ranged reads; locations are paths on the disk; a rescan reads none again")
    func scan() async throws {
        let log = try await Rig.start().checkScan()
        #expect(log.contains { $0.path.contains("offset=2") }, "pages of limit=2 are followed")
        #expect(log.allSatisfy { $0.authorized && $0.status < 300 }, "\(log.filter { $0.status >= 300 })")
        let downloads = log.filter { $0.host == "download" }
        #expect(!downloads.isEmpty && downloads.allSatisfy { $0.range != nil }, "only ranged reads")
    }

    @Test("a track plays with a seek, byte for byte, each byte fetched about once; a replay from the cache fetches 0 bytes")
    func playSeekReplay() async throws {
        let log = try await Rig.start().checkPlaySeekReplay("Music/Long Mix/long track.mp3")
        #expect(log.filter { $0.host == "download" }.allSatisfy { $0.authorized }, "with the token")
        #expect(log.filter { $0.path.hasPrefix("/v1/disk/resources/download") }.count == 1, "one link for the whole play")
    }

    @Test("a seek into a half-cached track fetches only the holes")
    func seekFetchesHoles() async throws {
        try await Rig.start().checkSeekFetchesHoles()
    }

    @Test("a download link that expires mid-play is replaced, the track reads to its end, and no cached byte is fetched again")
    func linkExpiry() async throws {
        let rig = try await Rig.start()
        let originFile = try await Fixtures.shared.url(.longMP3)
        let origin = try Data(contentsOf: originFile)
        try rig.server.publish(originFile, as: "Music/long.mp3")
        let location = TrackLocation(source: "yd", key: "Music/long.mp3")
        for status in [410, 403] {
            try await rig.server.control(#"{"link_status": \#(status), "clear_log": true}"#)
            let loader = rig.loader(try rig.source())
            let half = origin.count / 2
            #expect(try await loader.bytes(in: 0..<Int64(half), of: location) == Array(origin[0..<half]))
            // Expired now (no clock involved: a busy machine cannot make a fresh link old).
            try await rig.server.control(#"{"expire_links": true}"#)
            #expect(try await loader.open(location).readWhole() == origin)
            await loader.shutdown()
            let log = try await rig.server.log()
            #expect(log.contains { $0.host == "download" && $0.status == status }, "the old link answered \(status)")
            #expect(log.filter { $0.path.hasPrefix("/v1/disk/resources/download") }.count >= 2, "a new link was asked for")
            let bytes = log.filter { $0.host == "download" }.reduce(0) { $0 + $1.bytes }
            #expect(bytes <= origin.count + origin.count / 50, "cached bytes kept: \(bytes) of \(origin.count)")
        }
    }

    @Test("a file changed on the disk (a new sha256) is never mixed with the cached copy of the old one")
    func changedFile() async throws {
        try await Rig.start().checkChangedFile()
        try await Rig.start().checkChangedWhileReading()
    }

    @Test("429 with Retry-After is waited out, as long as it asks, and the scan completes")
    func busy() async throws {
        try await Rig.start().checkBusy()
    }

    @Test("a folder answered with broken JSON is one clear problem naming the source and the folder; the scan goes on with the rest")
    func badJSON() async throws {
        try await Rig.start().checkBadJSON(words: "JSON that is not a resource")
    }

    @Test("a download link that answers a web page is a clear error; nothing of the page is cached")
    func linkAnswersHTML() async throws {
        let rig = try await Rig.start()
        try rig.server.publish(try await Fixtures.shared.url(.vbrMP3), as: "Music/a.mp3")
        try await rig.server.control(#"{"html_href": true}"#)
        let loader = rig.loader(try rig.source(), cache: "cache")
        let error = await #expect(throws: LoaderError.self) { _ = try await loader.open(TrackLocation(source: "yd", key: "Music/a.mp3")).readWhole() }
        await loader.shutdown()
        #expect("\(error.map { "\($0)" } ?? "")".contains("yd: /Music/a.mp3: the download link answered a web page"), "\(String(describing: error))")
        #expect(CacheInspector(cacheDirectory: rig.folder.appendingPathComponent("cache")).entries.allSatisfy { $0.recordedBytes == 0 })
    }

    @Test("a refused token fails the scan with one line that names the source and says what to do; no token in errors or file names")
    func refusedToken() async throws {
        let rig = try await Rig.start()
        try await rig.checkRefusedToken("AQ-wrong-\(UUID().uuidString.prefix(8))", words: "token was refused (HTTP 401 UnauthorizedError", token: rig.server.token)
    }

    @Test("a folder that is gone fails its scan with one line naming the source and the folder; a file gone since fails its play likewise")
    func gone() async throws {
        try await Rig.start().checkGone(words: "not on the disk (HTTP 404 DiskNotFoundError")
    }

    @Test("a real 403 — of the API, or of the download host for every new link — is one line naming the source and the path; the scan goes on")
    func forbidden() async throws {
        let rig = try await Rig.start()
        try rig.server.publish(try await Fixtures.shared.url(.vbrMP3), as: "Music/Secret/a.mp3")
        try rig.server.publish(try await Fixtures.shared.url(.cbrMP3), as: "Music/b.mp3")
        try await rig.server.control(#"{"forbid": "Secret", "forbid_download": "b.mp3"}"#)
        let loader = rig.loader(try rig.source())
        let library = try await rig.library()
        let report = try #require(await library.scan(["yd"], loader: loader).first)
        #expect(!report.failed && report.problems.contains { $0.contains("yd: /Music/Secret: access refused (HTTP 403 ForbiddenError") }, "\(report)")
        let error = await #expect(throws: LoaderError.self) { _ = try await loader.open(TrackLocation(source: "yd", key: "Music/b.mp3")).readWhole() }
        await loader.shutdown()
        #expect("\(String(describing: error))".contains("yd: /Music/b.mp3: access refused (HTTP 403"), "\(String(describing: error))")
        let links = try await rig.server.log().filter { $0.path.hasPrefix("/v1/disk/resources/download") && $0.path.contains("b.mp3") }
        #expect(links.count >= 2, "a new link was tried before the 403 was taken for a refusal")
    }

    @Test("the token goes to the download host the API named, never to another host a redirect from it names")
    func noTokenAcrossRedirects() async throws {
        let proxies = Locked<[FaultProxy]>([])
        let server = try await YandexDiskTestServer { port in
            let named = try FaultProxy(originPort: port), elsewhere = try FaultProxy(originPort: port)
            proxies.withLock { $0 = [named, elsewhere] }
            return "http://127.0.0.1:\(named.port)"
        }
        let rig = Rig(server: server, folder: try Fixtures.shared.scratchDirectory())
        let (named, elsewhere) = proxies.withLock { ($0[0], $0[1]) }
        try server.publish(try await Fixtures.shared.url(.vbrMP3), as: "Music/a.mp3")
        named.inject(.redirect(to: "http://127.0.0.1:\(elsewhere.port)"))
        let loader = rig.loader(try rig.source())
        // The emulator's download host wants the token: without it the redirected request is refused.
        _ = try? await loader.open(TrackLocation(source: "yd", key: "Music/a.mp3")).readWhole()
        await loader.shutdown()
        let redirected = await elsewhere.settledLog()
        #expect(!redirected.isEmpty && redirected.allSatisfy { $0.authorization == nil }, "\(redirected.map(\.authorization))")
        let direct = await named.settledLog()
        #expect(!direct.isEmpty && direct.allSatisfy { $0.authorization == "OAuth \(server.token)" }, "the named host gets it")
    }

    @Test("no token or download link in locations, cache file names or scan reports")
    func noCredentialsAnywhere() async throws {
        let rig = try await Rig.start()
        try rig.server.publish(try await Fixtures.shared.url(.vbrMP3), as: "Music/a.mp3")
        let loader = rig.loader(try rig.source(), cache: "cache")
        let library = try await rig.library()
        let report = try #require(await library.scan(["yd"], loader: loader).first)
        _ = try await loader.open(TrackLocation(source: "yd", key: "Music/a.mp3")).readWhole()
        await loader.shutdown()
        let tracks = try await library.tracks(TrackFilter(source: "yd"))
        #expect(tracks.map(\.url) == ["cloudplayer://yd/Music/a.mp3"])
        let links = try await rig.server.log().filter { $0.host == "download" }.map { String($0.path.split(separator: "?")[0].split(separator: "/").last ?? "") }
        #expect(!links.isEmpty)
        let everything = rig.fileNames.joined(separator: "\n") + "\(report)" + tracks.map(\.url).joined()
        #expect(!everything.contains(rig.server.token))
        #expect(links.allSatisfy { !everything.contains($0) })
    }
}

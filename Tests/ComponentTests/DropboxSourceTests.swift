import Base
import ComponentTestSupport
import Foundation
import Library
import Loader
import Model
import SourceTypes
import Testing
import TestSupport

/// `type = "dropbox"` against the Dropbox emulator (Tests/CloudEmulators/dropbox.py, written from
/// API v2's public docs): listing pages and their cursor (and a cursor reset), downloads by POST
/// with `Dropbox-API-Arg` and Range, a non-ASCII path, 429, broken JSON, refusals.
@Suite(.timeLimit(.minutes(3)))
struct DropboxSourceTests {
    struct Rig: CloudSourceRig {
        let server: DropboxTestServer
        let folder: URL

        static func start() async throws -> Rig {
            Rig(server: try await DropboxTestServer(), folder: try Fixtures.shared.scratchDirectory())
        }

        /// The source "dbx" (its long-lived token in a file; `token` overrides the right one), rooted at `path`.
        func source(token: String? = nil, path: String = "/Music", pageSize: Int = 2) throws -> any SourceType {
            try source("""
                [[source]]
                name = "dbx"
                type = "dropbox"
                path = "\(path)"
                api_url = "\(server.apiURL.absoluteString)"
                content_url = "\(server.contentURL.absoluteString)"
                page_size = \(pageSize)
                """, named: "dbx", token: token ?? server.token)
        }
    }

    @Test("a folder scans page by page through the cursor, and starts again when the cursor is reset; tags by ranged reads; locations are paths; a rescan reads none again")
    func scan() async throws {
        let log = try await Rig.start().checkScan(control: #"{"reset_cursors": 1}"#)
        let continued = log.filter { $0.path == "/2/files/list_folder/continue" }
        #expect(continued.contains { $0.status == 200 }, "pages of limit=2 are followed with the cursor")
        #expect(continued.filter { $0.status == 409 }.count == 1, "the cursor was reset once")
        #expect(log.filter { $0.path == "/2/files/list_folder" }.allSatisfy { $0.body?.contains("\"limit\": 2") == true })
        #expect(log.allSatisfy { $0.authorized && ($0.status < 300 || $0.status == 409) }, "\(log.filter { $0.status >= 300 })")
        let downloads = log.filter { $0.host == "content" }
        #expect(!downloads.isEmpty && downloads.allSatisfy { $0.method == "POST" && $0.range != nil }, "only ranged POSTs")
    }

    @Test("a track with a non-ASCII path plays with a seek, byte for byte, its Dropbox-API-Arg \\u-escaped; each byte fetched about once; a replay fetches 0 bytes")
    func playSeekReplay() async throws {
        let log = try await Rig.start().checkPlaySeekReplay("Music/Café Ünïcode/Ωmega 曲 🎵.mp3")
        let downloads = log.filter { $0.host == "content" }
        #expect(downloads.allSatisfy { $0.method == "POST" && $0.authorized }, "POSTs with the token")
        let args = downloads.compactMap(\.arg)
        #expect(args.count == downloads.count && args.allSatisfy { $0.unicodeScalars.allSatisfy { $0.value < 0x7F } })
        #expect(args.allSatisfy { $0.contains(#"Caf\u00e9 \u00dcn\u00efcode/\u03a9mega \u66f2 \ud83c\udfb5.mp3"#) }, "\(args.first ?? "")")
    }

    @Test("a seek into a half-cached track fetches only the holes")
    func seekFetchesHoles() async throws {
        try await Rig.start().checkSeekFetchesHoles()
    }

    @Test("a file changed in the Dropbox (a new content_hash) is never mixed with the cached copy of the old one")
    func changedFile() async throws {
        try await Rig.start().checkChangedFile()
        try await Rig.start().checkChangedWhileReading()
    }

    @Test("429 too_many_requests with Retry-After is waited out, of the API and of the content host; the scan and the play complete")
    func busy() async throws {
        let rig = try await Rig.start()
        let file = try await Fixtures.shared.url(.vbrMP3)
        try rig.server.publish(file, as: "Music/a.mp3")
        try await rig.server.control(#"{"busy": [1, 1]}"#)
        let loader = rig.loader(try rig.source())
        let library = try await rig.library()
        let start = ContinuousClock.now
        let report = try #require(await library.scan(["dbx"], loader: loader).first)
        #expect(start.duration(to: .now) >= .seconds(2), "two waits of Retry-After: 1")
        #expect(!report.failed && report.tracks == 1 && report.problems.isEmpty, "\(report)")
        try await rig.server.control(#"{"busy_download": [1]}"#)
        let track = try await loader.open(TrackLocation(source: "dbx", key: "Music/a.mp3"))
        #expect(try await track.readWhole() == (try Data(contentsOf: file)))
        await loader.shutdown()
        let log = try await rig.server.log()
        #expect(log.filter { $0.status == 429 && $0.host == "api" }.count == 2)
        #expect(log.filter { $0.status == 429 && $0.host == "content" }.count == 1)
    }

    @Test("a folder answered with broken JSON is one clear problem naming the source and the folder; the scan goes on with the rest")
    func badJSON() async throws {
        try await Rig.start().checkBadJSON(words: "JSON that is not a folder listing")
    }

    @Test("a refused token fails the scan with one line that names the source and says what to do; no token in errors or file names")
    func refusedToken() async throws {
        let rig = try await Rig.start()
        try await rig.checkRefusedToken("sl.wrong-\(UUID().uuidString.prefix(8))", words: "token was refused (HTTP 401 invalid_access_token", token: rig.server.token)
    }

    @Test("a folder that is gone (409 path/not_found) fails its scan with one line naming the source and the folder; a file gone since fails its play likewise")
    func gone() async throws {
        try await Rig.start().checkGone(words: "not in the Dropbox (HTTP 409 path/not_found)")
    }

    @Test("no token in locations, cache file names or scan reports")
    func noCredentialsAnywhere() async throws {
        let rig = try await Rig.start()
        try rig.server.publish(try await Fixtures.shared.url(.vbrMP3), as: "Music/a.mp3")
        let loader = rig.loader(try rig.source(), cache: "cache")
        let library = try await rig.library()
        let report = try #require(await library.scan(["dbx"], loader: loader).first)
        _ = try await loader.open(TrackLocation(source: "dbx", key: "Music/a.mp3")).readWhole()
        await loader.shutdown()
        let tracks = try await library.tracks(TrackFilter(source: "dbx"))
        #expect(tracks.map(\.url) == ["cloudplayer://dbx/Music/a.mp3"])
        let everything = rig.fileNames.joined(separator: "\n") + "\(report)" + tracks.map(\.url).joined()
        #expect(!everything.contains(rig.server.token))
    }
}

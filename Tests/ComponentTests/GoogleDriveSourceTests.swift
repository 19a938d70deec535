import ComponentTestSupport
import Foundation
import Library
import Loader
import Model
import SourceTypes
import Testing
import TestSupport

/// `type = "google-drive"` against the Drive API v3 emulator (Tests/CloudEmulators/google_drive.py,
/// written from Google's public docs): `files.list` paged by `nextPageToken` with a `q` of the
/// folder's id, paths turned into ids name by name, `alt=media` with Range and the Bearer header,
/// versions from `md5Checksum` and `size`, 403 `userRateLimitExceeded` and 429 backed off, a 403
/// that is a refusal, broken JSON, Docs files, shortcuts, two folders of one name.
@Suite(.timeLimit(.minutes(3)))
struct GoogleDriveSourceTests {
    struct Rig: CloudSourceRig {
        let server: GoogleDriveTestServer
        let folder: URL

        static func start() async throws -> Rig {
            Rig(server: try await GoogleDriveTestServer(), folder: try Fixtures.shared.scratchDirectory())
        }

        /// The source "gd" (its token in a file; `token` overrides the right one), rooted at `path`.
        func source(token: String? = nil, path: String = "/Music", pageSize: Int = 2) throws -> any SourceType {
            try source("""
                [[source]]
                name = "gd"
                type = "google-drive"
                path = "\(path)"
                api_url = "\(server.driveURL.absoluteString)"
                page_size = \(pageSize)
                """, named: "gd", token: token ?? server.token)
        }

        /// A scan of "gd" at `path`, with a fresh library and loader.
        func scan(path: String = "/Music") async throws -> ScanReport {
            let loader = self.loader(try source(path: path))
            let report = try #require(await library().scan(["gd"], loader: loader).first)
            await loader.shutdown()
            return report
        }
    }

    @Test("a folder scans page by page (q '<id>' in parents, pageToken), its path looked up name by name; tags by ranged reads; locations are paths; a rescan reads none again")
    func scan() async throws {
        let log = try await Rig.start().checkScan()
        let queries = log.filter { $0.path.contains("/drive/v3/files?") }.map { $0.path.removingPercentEncoding ?? $0.path }
        #expect(queries.contains { $0.contains("q='root' in parents and trashed = false and name = 'Music'") }, "the path looked up from My Drive")
        #expect(queries.contains { $0.contains("in parents and trashed = false&fields=nextPageToken,files(id,name,mimeType,size,md5Checksum,headRevisionId,modifiedTime,parents,shortcutDetails,capabilities(canReadRevisions))&pageSize=2&supportsAllDrives=true") })
        #expect(queries.contains { $0.contains("pageToken=") }, "nextPageToken is followed")
        #expect(log.allSatisfy { $0.status < 400 }, "\(log.filter { $0.status >= 400 })")
        #expect(log.filter { $0.host != "accounts" }.allSatisfy { $0.authorized && !$0.path.contains("access_token") }, "the token in the header only")
        let media = log.filter { $0.host == "media" }
        #expect(!media.isEmpty && media.allSatisfy { $0.range != nil && $0.path.contains("?alt=media") }, "only ranged reads of alt=media")
    }

    @Test("a track plays with a seek, byte for byte, by alt=media with ranges and the Bearer header; a replay from the cache fetches 0 bytes")
    func playSeekReplay() async throws {
        let log = try await Rig.start().checkPlaySeekReplay("Music/Long Mix/long track.mp3")
        #expect(log.filter { $0.host == "media" }.allSatisfy { $0.authorized }, "the token goes with each read")
        let described = log.filter { ($0.path.removingPercentEncoding ?? "").contains("?fields=id,name") }
        #expect(described.count == 1, "the file described once for the whole play: \(described.map(\.path))")
    }

    @Test("a seek into a half-cached track fetches only the holes")
    func seekFetchesHoles() async throws {
        try await Rig.start().checkSeekFetchesHoles()
    }

    @Test("a file changed in the drive (a new md5Checksum) is never mixed with the cached copy of the old one")
    func changedFile() async throws {
        try await Rig.start().checkChangedFile()
        try await Rig.start().checkChangedWhileReading()
    }

    @Test("403 userRateLimitExceeded and 429 are backed off (Retry-After honoured) and the scan and the play complete")
    func rateLimit() async throws {
        let rig = try await Rig.start()
        let file = try await Fixtures.shared.url(.vbrMP3)
        try rig.server.publish(file, as: "Music/a.mp3")
        try await rig.server.control(#"{"rate_limit": 2, "busy": [1]}"#)
        let start = ContinuousClock.now
        let report = try await rig.scan()
        let took = start.duration(to: .now)
        #expect(!report.failed && report.tracks == 1 && report.problems.isEmpty, "\(report)")
        let log = try await rig.server.log()
        #expect(log.filter { $0.status == 403 }.count == 2 && log.filter { $0.status == 429 }.count == 1)
        #expect(took >= .seconds(4), "backed off: 1 s, 2 s (exponentially), then Retry-After: 1")

        // The same on a read of the file's bytes.
        try await rig.server.control(#"{"clear_log": true}"#)
        let loader = rig.loader(try rig.source())
        try await rig.server.control(#"{"rate_limit": 1}"#)
        #expect(try await loader.open(TrackLocation(source: "gd", key: "Music/a.mp3")).readWhole() == (try Data(contentsOf: file)))
        await loader.shutdown()
        #expect(try await rig.server.log().contains { $0.status == 403 })
    }

    @Test("a 403 that is a refusal (insufficientFilePermissions) is one line naming the source and the path, for a folder's scan and a file's play; the scan goes on")
    func refusal() async throws {
        let rig = try await Rig.start()
        try rig.server.publish(try await Fixtures.shared.url(.vbrMP3), as: "Music/Secret/a.mp3")
        try rig.server.publish(try await Fixtures.shared.url(.cbrMP3), as: "Music/b.mp3")
        try await rig.server.control(#"{"forbid": "Secret"}"#)
        let report = try await rig.scan()
        #expect(!report.failed && report.tracks == 1, "\(report)")
        #expect(report.problems.contains { $0.contains("gd: /Music/Secret: access refused (HTTP 403 insufficientFilePermissions") }, "\(report)")
        #expect(try await rig.server.log().filter { $0.status == 403 }.count == 1, "a refusal is not retried")

        try await rig.server.control(#"{"forbid": "b.mp3"}"#)
        let loader = rig.loader(try rig.source())
        let error = await #expect(throws: LoaderError.self) { _ = try await loader.open(TrackLocation(source: "gd", key: "Music/b.mp3")).readWhole() }
        await loader.shutdown()
        #expect("\(String(describing: error))".contains("gd: /Music/b.mp3: access refused (HTTP 403 insufficientFilePermissions"), "\(String(describing: error))")
    }

    @Test("a file shared as a viewer (canReadRevisions false, its revisions 403) plays by files/ID?alt=media with a seek and a replay; a change while reading is never mixed")
    func viewerShared() async throws {
        let rig = try await Rig.start()
        try await rig.server.control(#"{"viewer": "Music/"}"#)
        let log = try await rig.checkPlaySeekReplay("Music/Shared/long track.mp3")
        let media = log.filter { $0.host == "media" }
        #expect(!media.isEmpty && media.allSatisfy { $0.status == 206 && !$0.path.contains("/revisions/") }, "\(media.map { ($0.path, $0.status) })")
        // The file's metadata is asked after each answer: the version it names is the bytes'.
        let changing = try await Rig.start()
        try await changing.server.control(#"{"viewer": "Music/"}"#)
        try await changing.checkChangedFile()
        let reading = try await Rig.start()
        try await reading.server.control(#"{"viewer": "Music/"}"#)
        try await reading.checkChangedWhileReading()
        #expect(try await reading.server.log().contains { $0.host == "media" && !$0.path.contains("/revisions/") })
    }

    @Test("a folder answered with broken JSON is one clear problem naming the source and the folder; the scan goes on with the rest")
    func badJSON() async throws {
        try await Rig.start().checkBadJSON(words: "JSON that is not a file list as documented")
    }

    @Test("a refused token fails the scan with one line that names the source and says what to do; no token in errors or file names")
    func refusedToken() async throws {
        let rig = try await Rig.start()
        try await rig.checkRefusedToken("ya29.wrong-\(UUID().uuidString.prefix(8))", words: "gd: cannot list /Music: the token was refused (HTTP 401 authError",
                                        token: rig.server.token)
    }

    @Test("a folder that is not in the drive fails its scan with one line naming the source and the folder; a file gone since fails its play likewise")
    func gone() async throws {
        try await Rig.start().checkGone(words: "not in the drive")
    }

    @Test("Google Docs files are left out (one of a track's name too); a shortcut to a folder or a file is followed once, under its own name, and plays; a folder inside the scanned one is listed once; shortcuts making a cycle are refused")
    func docsAndShortcuts() async throws {
        let rig = try await Rig.start()
        let a = try await Fixtures.shared.url(.vbrMP3), b = try await Fixtures.shared.url(.cbrMP3), c = try await Fixtures.shared.url(.secondMP3)
        try rig.server.publish(a, as: "Music/a.mp3")
        try rig.server.document(at: "Music/Notes")
        try rig.server.document(at: "Music/Lyrics.mp3")
        try rig.server.document(at: "Music/a.mp3")
        try rig.server.publish(b, as: "Elsewhere/b.mp3")
        try rig.server.publish(c, as: "Elsewhere/Deep/c.mp3")
        try rig.server.shortcut(at: "Music/Linked", to: "Elsewhere")
        try rig.server.shortcut(at: "Music/Single.mp3", to: "Elsewhere/Deep/c.mp3")
        // A shortcut to a folder inside the one scanned: that folder is listed once, at its own place.
        try rig.server.publish(a, as: "Music/Sub/d.mp3")
        try rig.server.shortcut(at: "Music/Again", to: "Music/Sub")
        // A shortcut to a file inside the one scanned: that file is one track, at its own place
        // (issue 27: it was a second track, its tags read twice).
        try rig.server.shortcut(at: "Music/Alias.mp3", to: "Music/Sub/d.mp3")
        // Cycles: a shortcut to the folder that holds it, and one back up from a linked folder.
        try rig.server.shortcut(at: "Music/Self", to: "Music")
        try rig.server.shortcut(at: "Elsewhere/Back", to: "Music")
        let loader = rig.loader(try rig.source())
        let library = try await rig.library()
        let report = try #require(await library.scan(["gd"], loader: loader).first)
        await loader.shutdown()
        #expect(!report.failed && report.tracks == 5, "a, Sub/d, Linked/b, Linked/Deep/c, Single: \(report)")
        let urls = Set(try await library.tracks(TrackFilter(source: "gd")).map(\.url))
        #expect(urls == ["cloudplayer://gd/Music/a.mp3", "cloudplayer://gd/Music/Sub/d.mp3", "cloudplayer://gd/Music/Linked/b.mp3",
                         "cloudplayer://gd/Music/Linked/Deep/c.mp3", "cloudplayer://gd/Music/Single.mp3"], "\(urls)")
        #expect(report.problems.contains { $0.contains("/Music/Again: a shortcut to a folder inside the one scanned, listed at its own place") })
        #expect(report.problems.contains { $0.contains("/Music/Alias.mp3: a shortcut to a file inside the one scanned, listed at its own place") },
                "\(report.problems)")
        // d.mp3 holds a.mp3's bytes: its tags are read with as many requests as a's, not twice that.
        let (aID, dID) = (try await rig.server.id(of: "Music/a.mp3"), try await rig.server.id(of: "Music/Sub/d.mp3"))
        let reads = try await rig.server.log().filter { $0.host == "media" }
        let (aReads, dReads) = (reads.filter { $0.path.contains(aID) }.count, reads.filter { $0.path.contains(dID) }.count)
        #expect(aReads >= 1 && dReads == aReads, "d.mp3's tags read once: \(dReads) requests, a.mp3's \(aReads)")
        let cycles = report.problems.filter { $0.contains("a cycle") }
        #expect(cycles.count == 2 && cycles.contains { $0.contains("/Music/Self") } && cycles.contains { $0.contains("/Music/Linked/Back") }, "\(report.problems)")
        #expect(!report.problems.contains { $0.contains("Notes") || $0.contains("Lyrics") }, "Docs files are left out without a word")
        #expect(try await rig.server.log().allSatisfy { !($0.host == "media" && $0.status == 403) }, "no Docs file was downloaded")

        // Played in a fresh process: the paths are looked up name by name, through the shortcuts
        // (a Docs file of the same name as a track does not make its path ambiguous).
        let player = rig.loader(try rig.source())
        #expect(try await player.open(TrackLocation(source: "gd", key: "Music/a.mp3")).readWhole() == (try Data(contentsOf: a)))
        #expect(try await player.open(TrackLocation(source: "gd", key: "Music/Linked/b.mp3")).readWhole() == (try Data(contentsOf: b)))
        #expect(try await player.open(TrackLocation(source: "gd", key: "Music/Single.mp3")).readWhole() == (try Data(contentsOf: c)))
        await player.shutdown()

        // From My Drive's root, the linked folder is inside too: listed at its own place only.
        let whole = rig.loader(try rig.source(path: "/"))
        let all = try #require(await library.scan(["gd"], loader: whole).first)
        await whole.shutdown()
        #expect(!all.failed && all.tracks == 4, "a, Sub/d, Elsewhere/b, Elsewhere/Deep/c (Single is c, at its own place): \(all)")
        #expect(all.problems.contains { $0.contains("/Music/Linked: a shortcut to a folder inside the one scanned") }, "\(all.problems)")
    }

    @Test("two folders of one name in the path are a clear error naming the path; in a scanned folder, one problem, and the scan goes on")
    func twoFoldersOfOneName() async throws {
        let rig = try await Rig.start()
        try rig.server.publish(try await Fixtures.shared.url(.vbrMP3), as: "Music/Live/a.mp3")
        try rig.server.publish(try await Fixtures.shared.url(.cbrMP3), as: "Music/Live~twin2/b.mp3")
        try rig.server.publish(try await Fixtures.shared.url(.secondMP3), as: "Music/c.mp3")
        let inPath = try await rig.scan(path: "/Music/Live")
        #expect(inPath.failed && inPath.problems.joined().contains("gd: cannot list /Music/Live: 2 items of that name in /Music"), "\(inPath)")
        let above = try await rig.scan()
        #expect(!above.failed && above.tracks == 1, "\(above)")
        #expect(above.problems.count == 1 && above.problems[0].contains("/Music/Live: 2 items of that name in /Music"), "\(above.problems)")
    }

    @Test("folder_id scans that folder, without looking a path up; its tracks' paths start below it, and play")
    func folderID() async throws {
        let rig = try await Rig.start()
        let file = try await Fixtures.shared.url(.vbrMP3)
        try rig.server.publish(file, as: "Music/Album/a.mp3")
        let id = try await rig.server.id(of: "Music")
        let source = try rig.source("""
            [[source]]
            name = "gd"
            type = "google-drive"
            folder_id = "\(id)"
            api_url = "\(rig.server.driveURL.absoluteString)"
            """, named: "gd", token: rig.server.token)
        let loader = rig.loader(source)
        let library = try await rig.library()
        let report = try #require(await library.scan(["gd"], loader: loader).first)
        #expect(!report.failed && report.tracks == 1, "\(report)")
        #expect(try await library.tracks(TrackFilter(source: "gd")).map(\.url) == ["cloudplayer://gd/Album/a.mp3"])
        #expect(try await rig.server.log().allSatisfy { !($0.path.removingPercentEncoding ?? "").contains("name = ") }, "no path looked up")
        await loader.shutdown()
        let player = rig.loader(source)
        #expect(try await player.open(TrackLocation(source: "gd", key: "Album/a.mp3")).readWhole() == (try Data(contentsOf: file)))
        await player.shutdown()
    }

    @Test("the defaults are Drive v3's and Google's endpoints, drive.readonly, offline access")
    func configuration() throws {
        let folder = try Fixtures.shared.scratchDirectory()
        let source = try #require(try LoaderConfiguration.parse("""
            [[source]]
            name = "x"
            type = "google-drive"
            client_id = "abc.apps.googleusercontent.com"
            """, relativeTo: folder).sources.source(named: "x") as? GoogleDriveSource)
        #expect(source.account.apiURL.absoluteString == "https://www.googleapis.com/drive/v3" && source.path == "/" && source.folderID == nil)
        #expect(source.account.oauth?.authURL.absoluteString == "https://accounts.google.com/o/oauth2/v2/auth")
        #expect(source.account.oauth?.tokenURL.absoluteString == "https://oauth2.googleapis.com/token" && source.account.oauth?.deviceURL == nil)
        #expect(source.account.oauth?.scope == "https://www.googleapis.com/auth/drive.readonly")
        #expect(source.account.oauth?.authorizationParameters == ["access_type": "offline", "prompt": "consent"])
        let byID = try #require(try LoaderConfiguration.parse("""
            [[source]]
            name = "x"
            type = "google-drive"
            folder_id = "1AbC_d-E"
            token = "t"
            """, relativeTo: folder).sources.source(named: "x") as? GoogleDriveSource)
        #expect(byID.folderID == "1AbC_d-E" && byID.shownLocation.contains("folder 1AbC_d-E"))
    }

    @Test("no token in locations, cache file names, scan reports, errors or request addresses")
    func noCredentialsAnywhere() async throws {
        let rig = try await Rig.start()
        try rig.server.publish(try await Fixtures.shared.url(.vbrMP3), as: "Music/a.mp3")
        let loader = rig.loader(try rig.source(), cache: "cache")
        let library = try await rig.library()
        let report = try #require(await library.scan(["gd"], loader: loader).first)
        _ = try await loader.open(TrackLocation(source: "gd", key: "Music/a.mp3")).readWhole()
        let wrong = "ya29.other-\(UUID().uuidString.prefix(8))"
        let refused = rig.loader(try rig.source(token: wrong))
        let error = await #expect(throws: LoaderError.self) { _ = try await refused.open(TrackLocation(source: "gd", key: "Music/a.mp3")) }
        await refused.shutdown()
        await loader.shutdown()
        let tracks = try await library.tracks(TrackFilter(source: "gd"))
        #expect(tracks.map(\.url) == ["cloudplayer://gd/Music/a.mp3"])
        let everything = rig.fileNames.joined(separator: "\n") + "\(report)" + tracks.map(\.url).joined() + "\(String(describing: error))"
            + (try await rig.server.log()).map(\.path).joined()
        for token in [rig.server.token, wrong] { #expect(!everything.contains(token)) }
    }
}

import ComponentTestSupport
import Foundation
import Library
import Loader
import Model
import SourceTypes
import Testing
import TestSupport

/// What every cloud source type must do, against its emulator, checked the same way for each
/// (Yandex.Disk, Dropbox, OneDrive, Google Drive, Box): each suite calls these with its rig and the words its provider uses.
extension CloudSourceRig {
    /// The source under test, reading `/Music` with its token from a file (or `token` instead).
    func tested(token: String? = nil, path: String = "/Music") throws -> any SourceType {
        try source(token: token, path: path, pageSize: 2)
    }

    /// The long track at `key` plays as the player plays it — opened, a seek to ¾, then all of
    /// it — byte for byte, its download host sending each byte about once and the cache left
    /// holding it whole; a replay from that cache downloads nothing. The answer is the first
    /// play's exchanges, for each suite's own checks of its provider's calls.
    func checkPlaySeekReplay(_ key: String) async throws -> [CloudExchange] {
        let originFile = try await Fixtures.shared.url(.longMP3)
        let origin = try Data(contentsOf: originFile)
        try server.publish(originFile, as: key)
        let location = TrackLocation(source: try tested().name, key: key)

        let loader = self.loader(try tested(), cache: "cache")
        let track = try await loader.open(location)
        #expect(track.length == Int64(origin.count))
        let offset = origin.count * 3 / 4
        #expect(try await track.read(at: offset, count: 5000) == Array(origin[offset..<offset + 5000]))
        #expect(try await track.readWhole() == origin)
        await loader.shutdown()
        let log = try await server.log()
        let downloads = log.filter { $0.host == Server.secondHost }
        #expect(!downloads.isEmpty && downloads.allSatisfy { $0.status == 206 && $0.range != nil }, "only ranged reads")
        // What the emulator wrote, not what the loader read: on a busy machine a chunk's last
        // socket buffers may be written after the bytes already came by another chunk (seen:
        // 1.037 ×). Fetching anything twice would be 1.25 × or more here.
        #expect(downloads.reduce(0) { $0 + $1.bytes } <= origin.count + origin.count / 10, "each byte about once")
        #expect(try CacheInspector(cacheDirectory: folder.appendingPathComponent("cache")).holdsWhole(origin))

        try await server.control(#"{"clear_log": true}"#)
        let again = self.loader(try tested(), cache: "cache")
        #expect(try await again.open(location).readWhole() == origin)
        await again.shutdown()
        #expect(try await server.downloadedBytes() == 0, "a replay sends no byte of the track")
        return log
    }

    /// A seek into a half-cached track fetches only the holes.
    func checkSeekFetchesHoles() async throws {
        let originFile = try await Fixtures.shared.url(.longMP3)
        let origin = try Data(contentsOf: originFile)
        try server.publish(originFile, as: "Music/long.mp3")
        let location = TrackLocation(source: try tested().name, key: "Music/long.mp3")
        let first = self.loader(try tested(), cache: "cache")
        let head = 300_000
        #expect(try await first.bytes(in: 0..<Int64(head), of: location) == Array(origin[0..<head]))
        await first.shutdown()
        #expect(try await server.downloadedBytes() >= head)

        try await server.control(#"{"clear_log": true}"#)
        let again = self.loader(try tested(), cache: "cache")
        #expect(try await again.open(location).readWhole() == origin)
        await again.shutdown()
        let downloads = try await server.log().filter { $0.host == Server.secondHost }
        #expect(downloads.allSatisfy { $0.range.map { !$0.hasPrefix("bytes=0-") } ?? false }, "\(downloads.map(\.range))")
        #expect(downloads.reduce(0) { $0 + $1.bytes } <= origin.count - head + origin.count / 10, "the cached head is not fetched again")
    }

    /// A file changed in the cloud (a new version) is never mixed with the cached copy of the old one.
    func checkChangedFile() async throws {
        let old = try Data(contentsOf: try await Fixtures.shared.url(.longMP3))
        let new = Data(old.reversed())
        try server.publish(try await Fixtures.shared.url(.longMP3), as: "Music/long.mp3")
        let location = TrackLocation(source: try tested().name, key: "Music/long.mp3")
        let first = self.loader(try tested(), cache: "cache")
        #expect(try await first.bytes(in: 0..<400_000, of: location) == Array(old[0..<400_000]))
        await first.shutdown()

        try new.write(to: server.emulator.folder.appendingPathComponent("Music/long.mp3"))
        let again = self.loader(try tested(), cache: "cache")
        // The copy opened as the change is found reads the new version whole, or fails as
        // changed (the player opens it again then); it never mixes the two.
        do {
            #expect(try await again.open(location).readWhole() == new)
        } catch LoaderError.changedOnServer {}
        #expect(try await again.open(location).readWhole() == new)
        await again.shutdown()
        #expect(try CacheInspector(cacheDirectory: folder.appendingPathComponent("cache")).holdsWhole(new))
    }

    /// A file changed in the cloud while one loader reads it: what the same loader reads after
    /// the change is one version whole — the old one (the provider still serves the revision or
    /// link it was reading) or the new one — or fails as changed (the player opens it again
    /// then); the cache never holds bytes of both under one version.
    func checkChangedWhileReading() async throws {
        let old = try Data(contentsOf: try await Fixtures.shared.url(.longMP3))
        let new = Data(old.reversed())
        try server.publish(try await Fixtures.shared.url(.longMP3), as: "Music/long.mp3")
        let location = TrackLocation(source: try tested().name, key: "Music/long.mp3")
        let loader = self.loader(try tested(), cache: "reading")
        #expect(try await loader.bytes(in: 0..<400_000, of: location) == Array(old[0..<400_000]))
        try new.write(to: server.emulator.folder.appendingPathComponent("Music/long.mp3"))
        do {
            let read = try await loader.open(location).readWhole()
            #expect(read == old || read == new, "one version whole, not a mix")
        } catch LoaderError.changedOnServer {}
        await loader.shutdown()
        let cache = CacheInspector(cacheDirectory: folder.appendingPathComponent("reading"))
        for entry in cache.entries {
            #expect(try cache.compare(entry, with: old).wrong == 0 || cache.compare(entry, with: new).wrong == 0, "a record mixes two versions")
        }
    }

    /// Two API calls answered 429 with `Retry-After: 1` (the emulator's `busy`) are waited out,
    /// as long as they ask, and the scan completes.
    func checkBusy() async throws {
        try server.publish(try await Fixtures.shared.url(.vbrMP3), as: "Music/a.mp3")
        try await server.control(#"{"busy": [1, 1]}"#)
        let source = try tested()
        let loader = self.loader(source)
        let library = try await library()
        let start = ContinuousClock.now
        let report = try #require(await library.scan([source.name], loader: loader).first)
        let took = start.duration(to: .now)
        await loader.shutdown()
        #expect(!report.failed && report.tracks == 1 && report.problems.isEmpty, "\(report)")
        #expect(try await server.log().filter { $0.status == 429 }.count == 2)
        #expect(took >= .seconds(2), "two waits of Retry-After: 1")
    }

    /// A folder answered with broken JSON (the emulator's `bad_json`) is one problem naming the
    /// source and the folder, in these `words`; the scan goes on with the rest.
    func checkBadJSON(words: String) async throws {
        try server.publish(try await Fixtures.shared.url(.vbrMP3), as: "Music/Good/a.mp3")
        try server.publish(try await Fixtures.shared.url(.cbrMP3), as: "Music/Broken/b.mp3")
        try server.publish(try await Fixtures.shared.url(.opus), as: "Music/c.opus")
        try await server.control(#"{"bad_json": "Broken"}"#)
        let source = try tested()
        let loader = self.loader(source)
        let report = try #require(await library().scan([source.name], loader: loader).first)
        await loader.shutdown()
        #expect(!report.failed && report.tracks == 2, "\(report)")
        let broken = report.problems.filter { $0.contains("/Music/Broken") }
        #expect(broken.count == 1 && broken.allSatisfy { $0.hasPrefix("\(source.name): ") && $0.contains(words) }, "\(report.problems)")
        #expect(report.problems.allSatisfy { !$0.contains("/Music/Good") && !$0.contains("c.opus") })
    }

    /// A refused token (`wrong`) fails the scan with one line that names the source, says `words`
    /// and what to do; no token in errors or file names.
    func checkRefusedToken(_ wrong: String, words: String, token: String) async throws {
        try server.publish(try await Fixtures.shared.url(.vbrMP3), as: "Music/a.mp3")
        let source = try tested(token: wrong)
        let loader = self.loader(source, cache: "cache")
        let report = try #require(await library().scan([source.name], loader: loader).first)
        let error = await #expect(throws: LoaderError.self) { _ = try await loader.open(TrackLocation(source: source.name, key: "Music/a.mp3")) }
        await loader.shutdown()
        #expect(report.failed && report.problems.joined().contains(words), "\(report)")
        let said = report.problems.joined() + "\(String(describing: error))"
        #expect(said.contains("cloudplayerctl login \(source.name)"))
        for secret in [wrong, token] {
            #expect(!said.contains(secret))
            #expect(!fileNames.contains { $0.contains(secret) })
        }
    }

    /// A folder that is gone fails its scan with one line naming the source and the folder; a
    /// file gone since fails its play likewise — each in the provider's `words` (after the path).
    func checkGone(words: String) async throws {
        try server.publish(try await Fixtures.shared.url(.vbrMP3), as: "Music/a.mp3")
        let library = try await library()
        let missing = self.loader(try tested(path: "/Gone"))
        let name = try tested().name
        let report = try #require(await library.scan([name], loader: missing).first)
        await missing.shutdown()
        #expect(report.failed && report.problems.joined().contains("\(name): cannot list ")
                && report.problems.joined().contains("/Gone: \(words)") && report.problems.count == 1, "\(report)")

        let loader = self.loader(try tested())
        let scanned = try #require(await library.scan([name], loader: loader).first)
        #expect(!scanned.failed && scanned.tracks == 1, "\(scanned)")
        try FileManager.default.removeItem(at: server.emulator.folder.appendingPathComponent("Music/a.mp3"))
        let error = await #expect(throws: LoaderError.self) { _ = try await loader.open(TrackLocation(source: name, key: "Music/a.mp3")).readWhole() }
        await loader.shutdown()
        #expect("\(String(describing: error))".contains("\(name): /Music/a.mp3: \(words)"), "\(String(describing: error))")
    }

    /// A folder of five tracks in folders (and a text file, and one outside the path) scans whole,
    /// tags by ranged reads, locations `cloudplayer://NAME/PATH`; a rescan downloads nothing.
    /// `control` is sent first; the answer is what the emulator was asked by the first scan.
    func checkScan(control: String? = nil) async throws -> [CloudExchange] {
        let fixtures = Fixtures.shared
        try server.publish(try await fixtures.url(.vbrMP3), as: "Music/Album/01 vbr.mp3")
        try server.publish(try await fixtures.url(.opus), as: "Music/Album/02.opus")
        try server.publish(try await fixtures.url(.flac), as: "Music/Other/Deeper/song.flac")
        try server.publish(try await fixtures.url(.cbrMP3), as: "Music/top.mp3")
        try server.publish(try await fixtures.url(.longMP3), as: "Music/long.mp3")
        try server.publish(try await fixtures.url(.cbrMP3), as: "Music/notes.txt")
        try server.publish(try await fixtures.url(.secondMP3), as: "Elsewhere/outside.mp3")
        if let control { try await server.control(control) }

        let source = try tested()
        let loader = self.loader(source)
        let library = try await library()
        let report = try #require(await library.scan([source.name], loader: loader).first)
        #expect(!report.failed && report.tracks == 5 && report.tagsRead == 5 && report.problems.isEmpty, "\(report)")
        #expect(report.bytesFetched <= 5 * 70 * 1024, "tags by ranged reads: \(report.bytesFetched) bytes")

        let vbr = try #require(try await library.track(at: TrackLocation(source: source.name, key: "Music/Album/01 vbr.mp3")))
        #expect(vbr.title == "Vbr Title" && vbr.artist == "Some Artist" && vbr.url == "cloudplayer://\(source.name)/Music/Album/01%20vbr.mp3")
        #expect(try await library.track(at: TrackLocation(source: source.name, key: "Music/Other/Deeper/song.flac"))?.title == "FLAC Title")
        #expect(try await library.track(at: TrackLocation(source: source.name, key: "Elsewhere/outside.mp3")) == nil, "outside the path")
        let log = try await server.log().filter { !$0.path.hasPrefix("/_control") }

        try await server.control(#"{"clear_log": true}"#)
        let again = try #require(await library.scan([source.name], loader: loader).first)
        #expect(!again.failed && again.tracks == 5 && again.tagsRead == 0, "\(again)")
        #expect(try await server.downloadedBytes() == 0, "a rescan downloads nothing")
        await loader.shutdown()
        return log
    }
}

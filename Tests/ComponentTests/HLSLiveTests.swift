import Base
import ComponentTestSupport
import Decoding
import Foundation
import Loader
import Model
import Testing
import TestSupport

/// Live HLS (a playlist that grows, made in real time by ffmpeg or the packed-audio writer,
/// served by nginx) and bad HLS input, as the loader and the decoder take them: a live stream is
/// joined three target durations from its end and plays on as the playlist is loaded again, each
/// segment fetched once; its ID3 titles mark their songs; a segment, key or playlist that cannot
/// be had is one clear error; a cancel ends it at once while its server is frozen.
@Suite(.timeLimit(.minutes(3))) struct HLSLiveTests {
    @Test("a live playlist is joined three target durations from its end and plays on across reloads, each segment fetched once, nothing cached")
    func live() async throws {
        let server = try await HLSServer()
        // Ten segments listed, not four: a player held up a few seconds on a loaded machine (the
        // suite's first minutes) still finds every segment after its join; with four, 1 s
        // segments left the window before it fetched them, and the check below saw a gap.
        let encoder = try await HLSLiveEncoder(.tsAAC, on: server, listSize: 10)
        let listed = try await encoder.waitForSegments(4)
        let (played, cache) = try await LiveStreamTests.play(encoder.playlistURL) { $0.frames >= 5 * 44100 }
        #expect(played.error == nil, "\(String(describing: played.error))")
        #expect(played.info?.isLive == true && played.info?.totalFrames == nil)
        let segments = server.requests().filter { $0.path.hasSuffix(".ts") }.map(\.path)
        // Of 1 s segments, the first fetched is three from the end of the playlist the player
        // loaded, which had at least those listed before it started (on a loaded machine, more).
        let numbers = segments.compactMap { Int($0.split(separator: "/").last!.dropFirst(3).dropLast(3)) }
        let first = try #require(numbers.first, "\(segments)")
        #expect(first >= listed.segmentsMade - 4, "joined at segment \(first); \(listed.segments) were listed before")
        #expect(numbers == Array(first..<first + numbers.count), "in order, none missed: \(numbers)")
        #expect(server.requests().filter { $0.path.hasSuffix(".m3u8") }.count >= 2, "the playlist was loaded again")
        #expect(server.fetchedTwice().filter { !$0.key.hasSuffix(".m3u8") }.isEmpty, "\(server.fetchedTwice())")
        #expect(LiveStreamTests.cachedFiles(in: cache).isEmpty)
        await encoder.stop()
    }

    @Test("a live packed-audio stream's ID3 titles mark their songs at the first frame of their segment")
    func liveTitles() async throws {
        let server = try await HLSServer()
        // A new song every three segments: whenever the player joins, a change comes within three.
        let songs = (0..<40).map { HLSFixtures.Title(segment: 3 * $0, artist: "Live Artist \($0)", title: "Live Song \($0)") }
        // Ten segments listed (see `live`): a held-up player misses no song change.
        let encoder = try await HLSLiveEncoder(.packedAudio, on: server, listSize: 10, titles: songs)
        try await encoder.waitForSegments(3)
        let (played, _) = try await LiveStreamTests.play(encoder.playlistURL) { $0.songs.count >= 2 && $0.frames >= $0.songs[1].frame + 44100 }
        let titles = songs.map { TrackTags(title: $0.title, artist: $0.artist) }
        try #require(played.songs.count >= 2, "\(played.songs)")
        let joined = try #require(titles.firstIndex(of: played.songs[0].tags), "\(played.songs)")
        #expect(played.songs[0].frame == 0, "\(played.songs)")
        #expect(played.songs[1].tags == titles[joined + 1], "\(played.songs)")
        // At an ADTS frame's start: a whole number of 1024-sample frames from where playing began.
        #expect(played.songs[1].frame % 1024 == 0, "\(played.songs)")
        await encoder.stop()
    }

    @Test("a VOD segment gone from the server: what comes before it plays, then one clear error naming it")
    func segmentGone() async throws {
        let server = try await HLSServer()
        let set = try await HLSFixtures.shared.publish(.tsAAC, on: server)
        try set.remove(set.segments[3])
        let (played, _) = try await LiveStreamTests.play(set.playlistURL) { _ in false }
        let error = try #require(played.error)
        #expect("\(error)".contains(set.segments[3]) && "\(error)".contains("no such file"), "\(error)")
        let before = Int((set.durations.prefix(3).reduce(0, +) * 44100).rounded())
        #expect(abs(played.frames - before) <= 2048, "\(played.frames) frames before the gap at \(before)")
        #expect(Array(played.pcm.prefix(before * 2 - 4096)) == Array(set.reference.samples.prefix(before * 2 - 4096)))
    }

    @Test("an encrypted set whose key is wrong, or gone: one clear error, no audio made of noise",
          arguments: ["wrong", "gone"])
    func badKey(_ fault: String) async throws {
        let server = try await HLSServer()
        let set = try await HLSFixtures.shared.publish(.encryptedWithIV, on: server)
        if fault == "gone" {
            try set.remove("aes.key")
        } else {
            try Data((0..<16).map { UInt8(0xE0 + $0) }).write(to: set.folder.appendingPathComponent("aes.key"))
        }
        let (played, _) = try await LiveStreamTests.play(set.playlistURL) { _ in false }
        let error = "\(String(describing: played.error))"
        #expect(error.contains(fault == "gone" ? "no such file" : "does not decrypt"), "\(error)")
        #expect(played.frames == 0)
    }

    @Test("a playlist that is not one, a master with no playable variant, an empty playlist, a segment of 10^30 s, a bad URI with a token: one clear error each, no token in it",
          arguments: ["html", "video only", "no segments", "endless segment", "token"])
    func badPlaylist(_ fault: String) async throws {
        let server = try await HLSServer()
        let set = try await HLSFixtures.shared.publish(.tsAAC, on: server)
        let text = switch fault {
        case "html": "<!DOCTYPE html><html><body>Not here</body></html>"
        case "video only": "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=800000,CODECS=\"avc1.4d401f\"\nvideo.m3u8\n"
        case "endless segment": "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:1e30,\nseg0.ts\n#EXT-X-ENDLIST\n"
        case "token": "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\nftp://anna:hunter2@cdn.example/seg0.ts?token=s3cr3t\n#EXT-X-ENDLIST\n"
        default: "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-ENDLIST\n"
        }
        try Data(text.utf8).write(to: set.folder.appendingPathComponent("bad.m3u8"))
        let loader = LoaderActor(settings: LoaderSettings(cacheDirectory: try Fixtures.shared.scratchDirectory()))
        await #expect {
            _ = try await loader.open(TrackLocation(url: set.url("bad.m3u8")))
        } throws: { error in
            let text = "\(error)"
            return switch fault {
            case "html": text.contains("web page") || text.contains("not a playable HLS playlist")
            case "video only": text.contains("no variant cloudplayerd can play")
            case "endless segment": text.contains("up to a day")
            case "token": text.contains("not an http(s) URL") && !text.contains("s3cr3t") && !text.contains("hunter2")
            default: text.contains("without segments")
            }
        }
        await loader.shutdown()
    }

    @Test("a live stream whose server is frozen ends within a second of the cancel")
    func cancelWhileFrozen() async throws {
        let server = try await HLSServer()
        let encoder = try await HLSLiveEncoder(.tsAAC, on: server)
        try await encoder.waitForSegments(4)
        let loader = LoaderActor(settings: LoaderSettings(cacheDirectory: try Fixtures.shared.scratchDirectory()))
        let entry = QueueEntry(id: 1, location: TrackLocation(url: encoder.playlistURL))
        let queue = BoundedQueue<PCMPacket>(capacity: 4)
        let source = try await loader.open(entry.location)
        // The end stamped on a thread of its own, not on the cooperative pool other suites keep busy.
        let stopwatch = DecodeStopwatch()
        let decoding = Task {
            defer { queue.finish() }
            try await stopwatch.decode(source, into: queue)
        }
        // Playing: then the server stops answering anything, the playlist's reloads included.
        while let packet = await queue.next() { if case .samples = packet { break } }
        server.freeze(true)
        defer { server.freeze(false) }
        let drained = Task { while await queue.next() != nil {} }
        let cancelled = ContinuousClock.now
        source.cancel()
        decoding.cancel()
        _ = try? await decoding.value
        let took = try #require(await stopwatch.ended) - cancelled
        #expect(took < .seconds(1), "took \(took)")
        drained.cancel()
        await loader.shutdown()
        await encoder.stop()
    }
}

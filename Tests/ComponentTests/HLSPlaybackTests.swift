import Foundation
import Loader
import Model
import Testing
import TestSupport

/// HLS playlists that end (video on demand), made by ffmpeg and served by nginx, as the loader
/// and the decoder take them: each kind of segment (MPEG-TS with AAC or MP3, fragmented MP4,
/// packed audio, AES-128 with and without an IV) plays to the reference decode of its files,
/// sample for sample; it has a length and seeks, fetching nothing before the segment a seek
/// lands in; its segments are fetched once and kept, so a replay fetches none; a master
/// playlist plays its best variant, or the best under `hls_bandwidth`.
@Suite(.timeLimit(.minutes(3))) struct HLSPlaybackTests {
    /// The reference of a set: ffmpeg's decode, but for MP3, whose decoder here is libmpg123 (its
    /// elementary stream, taken out by ffmpeg, decoded by mpg123).
    static func reference(of set: ServedHLS) async throws -> PCMAudio {
        guard set.kind == .tsMP3 else { return set.reference }
        // From the files, not the server: what the player fetches is counted.
        let stream = try Fixtures.shared.scratchDirectory().appendingPathComponent("stream.mp3")
        try await ChildProcess.check("ffmpeg", ["-nostdin", "-loglevel", "error", "-i", set.folder.appendingPathComponent("index.m3u8").path, "-c:a", "copy",
                                                "-f", "mp3", "-write_xing", "0", "-id3v2_version", "0", stream.path])
        return try await ReferenceDecoder.mpg123(stream)
    }

    static func pcm(_ played: LiveStreamTests.Played, frames: Int? = nil) -> PCMAudio {
        let samples = frames.map { Array(played.pcm.prefix($0 * played.channels)) } ?? played.pcm
        return PCMAudio(sampleRate: played.rates.first ?? 44100, channels: played.channels, samples: samples)
    }

    @Test("each kind of VOD segment plays to the reference decode of its files, with a length; each segment fetched once and kept",
          arguments: [HLSFixtures.Kind.tsAAC, .tsMP3, .fmp4AAC, .encrypted, .encryptedWithIV, .packedAudio])
    func vod(_ kind: HLSFixtures.Kind) async throws {
        let server = try await HLSServer()
        let set = try await HLSFixtures.shared.publish(kind, on: server)
        let reference = try await Self.reference(of: set)
        let cache = try Fixtures.shared.scratchDirectory()
        let (played, _) = try await LiveStreamTests.play(set.playlistURL, settings: { $0.cacheDirectory = cache }) { _ in false }
        #expect(played.error == nil, "\(String(describing: played.error))")
        #expect(Self.pcm(played) == reference, "\(kind): played \(Self.pcm(played)), reference \(reference)")
        let info = try #require(played.info)
        #expect(!info.isLive)
        // The length is the playlist's: its segments' durations, within a frame of the audio's.
        let length = try #require(info.totalFrames)
        #expect(abs(Double(length) - Double(reference.frameCount)) <= 1024, "\(length) frames, the audio \(reference.frameCount)")
        for segment in set.segments { await #expect(try server.waitForRequests(to: set.requestPath(segment)).count == 1) }
        #expect(server.fetchedTwice().isEmpty, "\(server.fetchedTwice())")
        if let key = set.key {
            #expect(server.count(of: set.requestPath("aes.key")) == 1)
            #expect(!Self.cacheHolds(key, in: cache), "the key is never written to disk")
        }
        // Played again: from the cache, not one segment fetched.
        let before = server.requests().count
        let (again, _) = try await LiveStreamTests.play(set.playlistURL, settings: { $0.cacheDirectory = cache }) { _ in false }
        #expect(Self.pcm(again) == reference)
        let fetched = server.requests().dropFirst(before).filter { $0.method == "GET" && !$0.path.hasSuffix(".m3u8") && !$0.path.hasSuffix(".key") }
        #expect(fetched.isEmpty, "\(fetched)")
    }

    /// A set of `kind` on a server of its own, and what it plays to: a master's best variant's.
    static func served(_ kind: HLSFixtures.Kind) async throws -> (HLSServer, ServedHLS, PCMAudio) {
        let server = try await HLSServer()
        let set = try await HLSFixtures.shared.publish(kind, on: server)
        let best = set.variants.max { $0.bandwidth < $1.bandwidth }
        return (server, set, kind == .master ? try #require(best).reference : set.reference)
    }

    /// Whether any file under the cache folder holds `bytes`.
    static func cacheHolds(_ bytes: Data, in folder: URL) -> Bool {
        let files = FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String] ?? []
        return files.contains { (try? Data(contentsOf: folder.appendingPathComponent($0)))?.range(of: bytes) != nil }
    }

    @Test("packed-audio segments' ID3 titles mark their songs at the first frame of their segment")
    func packedTitles() async throws {
        let server = try await HLSServer()
        let set = try await HLSFixtures.shared.publish(.packedAudio, on: server)
        let (played, _) = try await LiveStreamTests.play(set.playlistURL) { _ in false }
        // 86 AAC frames of 1024 samples a segment; a title is marked where it changes.
        let expected = [(0, "Artist A", "Song 1"), (3 * 86 * 1024, "Artist B", "Song 2"), (6 * 86 * 1024, "Artist C", "Sóng 3")]
        #expect(played.songs.map(\.frame) == expected.map(\.0), "\(played.songs)")
        #expect(played.songs.map(\.tags) == expected.map { TrackTags(title: $0.2, artist: $0.1) })
    }

    @Test("a seek starts at the segment that holds its time, fetching none before it, and lands on its frame")
    func seek() async throws {
        let server = try await HLSServer()
        let set = try await HLSFixtures.shared.publish(.tsAAC, on: server)
        let start = 7.3
        let (played, _) = try await LiveStreamTests.play(set.playlistURL, startingAt: start) { _ in false }
        #expect(played.error == nil, "\(String(describing: played.error))")
        let frame = Int((start * 44100).rounded())
        #expect(played.startFrame == Int64(frame))
        // Exact from the frame asked: the segment's time is its place in the stream's frames.
        let ours = Self.pcm(played), reference = set.reference.frames(from: frame)
        #expect(ours == reference, "\(ours) from frame \(frame)")
        var begins = 0.0
        for (segment, duration) in zip(set.segments, set.durations) {
            let fetched = server.count(of: set.requestPath(segment))
            #expect(fetched == (begins + duration <= start ? 0 : 1), "\(segment) at \(begins) s fetched \(fetched) times")
            begins += duration
        }
    }

    @Test("a start at or past the end of a stream on demand (a resume position) plays its last moment and ends, no error")
    func startPastTheEnd() async throws {
        let server = try await HLSServer()
        let set = try await HLSFixtures.shared.publish(.tsAAC, on: server)
        let (played, _) = try await LiveStreamTests.play(set.playlistURL, startingAt: set.durations.reduce(0, +) + 5) { _ in false }
        #expect(played.error == nil, "\(String(describing: played.error))")
        #expect(played.frames < 44100, "\(played.frames) frames")
    }

    @Test("a master playlist plays its highest variant, or the highest under hls_bandwidth; only that variant's segments are fetched")
    func master() async throws {
        let server = try await HLSServer()
        let set = try await HLSFixtures.shared.publish(.master, on: server)
        let variants = set.variants.sorted { $0.bandwidth < $1.bandwidth }
        for (cap, chosen) in [(nil, variants[2]), (variants[1].bandwidth + 1000, variants[1]), (1000, variants[0])] {
            let before = server.requests().count
            let (played, _) = try await LiveStreamTests.play(set.playlistURL, settings: { $0.hlsBandwidth = cap }) { _ in false }
            #expect(Self.pcm(played) == chosen.reference, "cap \(String(describing: cap)): \(Self.pcm(played))")
            let segments = server.requests().dropFirst(before).filter { $0.path.hasSuffix(".ts") }.map(\.path)
            #expect(!segments.isEmpty && segments.allSatisfy { $0.contains("/\(chosen.name)/") }, "cap \(String(describing: cap)): \(segments)")
        }
    }

    @Test("a VOD stream played once plays again offline (its server gone): its playlists kept, its segments from the cache",
          arguments: [HLSFixtures.Kind.tsAAC, .master])
    func offline(_ kind: HLSFixtures.Kind) async throws {
        let (server, set, reference) = try await Self.served(kind)
        let cache = try Fixtures.shared.scratchDirectory()
        let (first, _) = try await LiveStreamTests.play(set.playlistURL, settings: { $0.cacheDirectory = cache }) { _ in false }
        #expect(Self.pcm(first) == reference)
        await server.stop()
        let (again, _) = try await LiveStreamTests.play(set.playlistURL, settings: { $0.cacheDirectory = cache }) { _ in false }
        #expect(again.error == nil, "\(String(describing: again.error))")
        #expect(Self.pcm(again) == reference)
    }

    @Test("a playlist reached through a redirect: its segments are relative to where it was found (RFC 8216, 4.1)",
          arguments: [HLSFixtures.Kind.tsAAC, .master])
    func redirected(_ kind: HLSFixtures.Kind) async throws {
        let (server, set, reference) = try await Self.served(kind)
        let moved = server.movedURL(String(set.playlistURL.path.dropFirst()))
        let (played, _) = try await LiveStreamTests.play(moved) { _ in false }
        #expect(played.error == nil, "\(String(describing: played.error))")
        #expect(Self.pcm(played) == reference)
    }
}

import Base
import Decoding
import Foundation
import Loader
import Model
import Testing
import TestSupport

/// A station as the loader and the decoder take it, against the ICY test station (a real HTTP
/// server sending as SHOUTcast and Icecast do): it plays from its first bytes, equal to the
/// reference decode of what was sent, each title marked where its song is in the PCM; nothing is
/// cached; a dropped connection is made again; a station that stays away is one clear error.
@Suite(.timeLimit(.minutes(3))) struct LiveStreamTests {
    /// What the decoder put into the PCM queue for a station, and how it ended.
    struct Played {
        var pcm: [Int16] = []
        var channels = 2
        /// The sample rate of each `.trackStart` (the first, then each change of format).
        var rates: [Int] = []
        /// The frames at which songs began, with their tags.
        var songs: [(frame: Int, tags: TrackTags)] = []
        var error: (any Error)?
        /// What the first `.trackStart` said of the track, and the frame it started at.
        var info: TrackInfo?
        var startFrame: Int64? = 0

        var frames: Int { pcm.count / channels }
    }

    /// Plays `url` through a loader (its cache in a fresh folder) until `enough` holds or the
    /// decoding ends, then stops it; returns what was played and the cache folder.
    static func play(_ url: URL, startingAt start: Double = 0, settings: (inout LoaderSettings) -> Void = { _ in },
                     until enough: @escaping @Sendable (Played) -> Bool) async throws -> (Played, URL) {
        let folder = try Fixtures.shared.scratchDirectory()
        var loaderSettings = LoaderSettings(cacheDirectory: folder)
        settings(&loaderSettings)
        let loader = LoaderActor(settings: loaderSettings)
        let entry = QueueEntry(id: 1, location: TrackLocation(url: url))
        let queue = BoundedQueue<PCMPacket>(capacity: 4)
        let source = try await loader.open(entry.location)
        let decoding = Task {
            defer { queue.finish() }
            try await DecoderActor().decode(entry, from: source, startingAt: start, into: queue)
        }
        var played = Played()
        played.startFrame = nil
        var stopped = false
        while let packet = await queue.next() {
            switch packet {
            case .trackStart(_, let info, let startFrame):
                played.info = played.info ?? info
                played.startFrame = played.startFrame ?? startFrame
                played.channels = info.format.channels
                played.rates.append(info.format.sampleRate)
            case .samples(let samples): played.pcm += samples.int16 ?? []
            case .streamTags(_, let tags): played.songs.append((played.frames, tags))
            case .trackEnd, .pace: break
            }
            if enough(played) {
                stopped = true
                break
            }
        }
        source.cancel()
        decoding.cancel()
        // Stopped here, it ends with `cancelled` or without an error, as the moment falls.
        do { try await decoding.value } catch { if !stopped { played.error = error } }
        await loader.shutdown()
        return (played, folder)
    }

    /// Files the cache folder holds (its data and records): none for a station.
    static func cachedFiles(in folder: URL) -> [String] {
        (FileManager.default.enumerator(atPath: folder.appendingPathComponent("data").path)?.allObjects as? [String] ?? [])
            .filter { !$0.hasSuffix("/") && !$0.isEmpty }
    }

    @Test("an endless MP3 station plays from its first bytes, equal to mpg123 of what it sent; ICY titles at their frames; nothing cached")
    func mp3Station() async throws {
        let file = try await RadioFixtures.shared.url(.station)
        // The station runs far ahead of the decoder (the ring fills): a title is in hand long
        // before its song's audio is decoded, and must be placed by its offset. Byte offsets of
        // a 16,000 B/s stream: 0 s and 20 s (882,000 frames at 44.1 kHz).
        let server = try await ICYStreamServer(file: file, options: .asFastAsPossible(titles: [
            .init(at: 0, "Artist A - Song One"), .init(at: 320_000, "Artist B - Song Two"),
        ]))
        let (played, cache) = try await Self.play(server.url) { $0.frames >= 25 * 44100 }
        let expected = try await ReferenceDecoder.mpg123(file)
        #expect(PCMAudio(sampleRate: 44100, channels: 2, samples: Array(played.pcm.prefix(25 * 44100 * 2)))
                == expected.frames(from: 0, to: 25 * 44100))
        try #require(played.songs.count == 2, "\(played.songs)")
        // The first block comes 16,000 bytes (1 s) in: its song is shown from the first audio
        // decoded once it has come, as soon as it is known.
        #expect(played.songs[0].frame <= 44100 && played.songs[0].tags == TrackTags(title: "Song One", artist: "Artist A"),
                "\(played.songs[0])")
        #expect(played.songs[1].tags == TrackTags(title: "Song Two", artist: "Artist B"))
        // Placed by the share of a read's bytes: within an MPEG frame or two of 20 s, never where
        // the title arrived.
        #expect(abs(played.songs[1].frame - 882_000) <= 2 * 1152, "song two at frame \(played.songs[1].frame)")
        #expect(Self.cachedFiles(in: cache).isEmpty, "\(Self.cachedFiles(in: cache))")
        // One connection: the first answer, found live, is the one played.
        let requests = try server.requests()
        #expect(requests.count == 1 && requests.first?.header("Icy-MetaData") == "1", "\(requests)")
    }

    @Test("an Icecast mount fed by ffmpeg as its users run it, joined as the source connects: ffmpeg's ID3 tag (size 0, the cover in it) is skipped, the audio equals mpg123 of the file, and the tag's title is the song")
    func ffmpegTagOnIcecast() async throws {
        let plain = try await LiveTagFilterTests.song("radio")
        let folder = try Fixtures.shared.scratchDirectory()
        let tagged = folder.appendingPathComponent("tagged.mp3"), cover = folder.appendingPathComponent("cover.png")
        // A cover whose bytes hold what a decoder that looks for frames inside the tag takes
        // for MPEG frames (a cellular automaton's picture: "32000 Hz", then noise, seen).
        try await ChildProcess.check("ffmpeg", ["-nostdin", "-loglevel", "error", "-f", "lavfi", "-i", "cellauto=s=600x600:seed=7",
                                                "-frames:v", "1", cover.path])
        try await ChildProcess.check("ffmpeg", ["-nostdin", "-loglevel", "error", "-i", plain.path, "-i", cover.path,
                                                "-map", "0:a", "-map", "1", "-c", "copy", "-metadata", "title=Tagged Title",
                                                "-metadata", "artist=Tagged Artist", tagged.path])
        let icecast = try await IcecastServer()
        // Live once its header (the tag) is in; ffmpeg holds the audio back behind the cover's
        // stream for up to 10 s, so the listener is there before the first frame.
        let source = try await icecast.startFFmpegSource(playing: tagged, asUsersRun: true)
        let reference = try await ReferenceDecoder.mpg123(plain)
        let (played, _) = try await Self.play(icecast.url(source.mount)) { $0.frames >= reference.frameCount }
        await source.stop()
        await icecast.stop()
        #expect(played.rates.first == 44100, "\(played.rates)")
        #expect(PCMAudio(sampleRate: 44100, channels: played.channels, samples: Array(played.pcm.prefix(reference.samples.count))) == reference)
        #expect(played.songs.contains { $0.frame == 0 && $0.tags.title == "Tagged Title" && $0.tags.artist == "Tagged Artist" },
                "\(played.songs)")
    }

    @Test("a station with an ID3 tag between two songs (LAME's, the second with a 200 KB cover) and no ICY metadata plays through them, equal to mpg123 of the songs' frames; each tag's title at its song's first frame")
    func tagBetweenSongs() async throws {
        let first = try await LiveTagFilterTests.song("one", ["--id3v2-only", "--tt", "Song One", "--ta", "Artist A"])
        let second = try await LiveTagFilterTests.song("two", ["--id3v2-only", "--tt", "Song Two", "--ta", "Artist B",
                                                               "--ti", try await LiveTagFilterTests.bigCover().path])
        let (one, two) = (try Data(contentsOf: first), try Data(contentsOf: second))
        func frames(_ bytes: Data) -> Data { bytes.dropFirst(10 + bytes[6..<10].reduce(0) { $0 << 7 | Int($1) }) }
        let folder = try Fixtures.shared.scratchDirectory()
        let sent = folder.appendingPathComponent("sent.mp3"), audio = folder.appendingPathComponent("audio.mp3")
        try (one + two).write(to: sent)
        try (frames(one) + frames(two)).write(to: audio)
        var options = ICYStreamServer.Options()
        (options.plain, options.pace) = (true, .times(8))
        let server = try await ICYStreamServer(file: sent, options: options)
        let (played, _) = try await Self.play(server.url) { _ in false }
        #expect(played.error == nil, "\(String(describing: played.error))")
        let reference = try await ReferenceDecoder.mpg123(audio)
        #expect(PCMAudio(sampleRate: 44100, channels: played.channels, samples: played.pcm) == reference)
        let firstFrames = try await ReferenceDecoder.mpg123(first).frameCount
        #expect(played.songs.map(\.tags) == [TrackTags(title: "Song One", artist: "Artist A"), TrackTags(title: "Song Two", artist: "Artist B")])
        // Placed by the share of a read's bytes: within an MPEG frame or two of the join.
        #expect(played.songs.count == 2 && played.songs[0].frame == 0 && abs(played.songs[1].frame - firstFrames) <= 2 * 1152, "\(played.songs)")
    }

    @Test("an AAC station (ADTS, audio/aacp) plays from its first bytes, equal to ffmpeg's decode of what it sent")
    func aacStation() async throws {
        let file = try await ADTSDecoderTests.makeLC(seconds: 8)
        var options = ICYStreamServer.Options()
        options.contentType = "audio/aacp"
        options.pace = .asFastAsPossible
        options.titles = [.init(at: 0, "Artist A - Song One")]
        let server = try await ICYStreamServer(file: file, options: options)
        let reference = try await ADTSDecoderTests.reference(file)
        let (played, cache) = try await Self.play(server.url) { $0.pcm.count >= reference.count }
        #expect(played.error == nil, "\(String(describing: played.error))")
        #expect(played.info?.codec == .aac && played.info?.isLive == true)
        #expect(played.pcm.prefix(reference.count).map(Int32.init) == reference)
        #expect(played.songs.first?.tags == TrackTags(title: "Song One", artist: "Artist A"))
        #expect(Self.cachedFiles(in: cache).isEmpty)
    }

    @Test("a chained Ogg Vorbis station: each link's comments at its first sample, the audio equal to oggdec of each link")
    func oggStation() async throws {
        let songs = try await RadioFixtures.shared.urls(RadioFixtures.vorbisSongs)
        let chain = try await RadioFixtures.shared.vorbisChain()
        let server = try await ICYStreamServer(file: chain, options: .asFastAsPossible(contentType: "application/ogg"))
        var references: [PCMAudio] = []
        for song in songs { references.append(try await ReferenceDecoder.oggdec(song)) }
        let total = references.reduce(0) { $0 + $1.frameCount }
        let (played, _) = try await Self.play(server.url) { $0.frames >= total }
        #expect(played.songs.map(\.frame) == [0, references[0].frameCount, references[0].frameCount + references[1].frameCount])
        #expect(played.songs.map(\.tags.title) == RadioFixtures.songs.map(\.title))
        #expect(played.songs.map(\.tags.artist) == RadioFixtures.songs.map(\.artist))
        let expected = references.flatMap(\.samples)
        #expect(Array(played.pcm.prefix(expected.count)) == expected)
    }

    @Test("a file sent whole without a length and without icy- headers plays as it comes, to its end, once: the track ends, no reconnect")
    func fileWithoutLength() async throws {
        let file = try await RadioFixtures.shared.url(.firstSongMP3)
        var options = ICYStreamServer.Options()
        options.plain = true
        options.pace = .asFastAsPossible
        let server = try await ICYStreamServer(file: file, options: options)
        let (played, cache) = try await Self.play(server.url) { _ in false }
        #expect(played.error == nil, "\(String(describing: played.error))")
        let expected = try await ReferenceDecoder.mpg123(file)
        #expect(PCMAudio(sampleRate: 44100, channels: played.channels, samples: played.pcm) == expected)
        #expect(try server.requests().count == 1)
        #expect(Self.cachedFiles(in: cache).isEmpty)
    }

    @Test("a connection dropped mid-stream is made again and the station plays on from the new one")
    func reconnects() async throws {
        let file = try await RadioFixtures.shared.url(.station)
        var options = ICYStreamServer.Options()
        options.pace = .times(8)
        options.fault = .drop(afterBytes: 80_000, connections: 1, resume: true)
        let server = try await ICYStreamServer(file: file, options: options)
        // Past the drop (5 s in) by 5 s: only a second connection brings that.
        let (played, _) = try await Self.play(server.url) { $0.frames >= 10 * 44100 }
        let requests = try server.requests()
        #expect(requests.count == 2, "\(requests)")
        #expect(requests.last?.start ?? 0 >= 80_000)
        #expect(played.frames >= 10 * 44100)
    }

    @Test("a station that stays away after its stream broke: one clear error naming it, once stream_retry has passed")
    func givesUp() async throws {
        let file = try await RadioFixtures.shared.url(.station)
        var options = ICYStreamServer.Options()
        options.pace = .asFastAsPossible
        options.fault = .drop(afterBytes: 32_000)
        options.name = "Gone FM"
        let server = try await ICYStreamServer(file: file, options: options)
        let stopped = Task {
            _ = try await server.waitForRequests(1)
            await server.stop()
        }
        let (played, _) = try await Self.play(server.url, settings: { $0.streamRetry = 1 }) { _ in false }
        try await stopped.value
        let error = try #require(played.error as? LoaderError)
        guard case .streamLost(let station, _, _) = error else { Issue.record("\(error)"); return }
        #expect(station == "Gone FM")
        #expect(error.description.hasPrefix("Gone FM: the stream broke and could not be had again within 1 s"), "\(error)")
    }
}

import Base
import ComponentTestSupport
import Decoding
import Foundation
import Loader
import Model
import Testing
import TestSupport

/// Stations whose server answers SHOUTcast 1's `ICY 200 OK` (an HTTP/1.0 status line to our
/// client, which reads the code from it): they play as any station does, reconnect, keep their
/// connection while paused, fail clearly when they answer wrong, and stop at once.
@Suite(.timeLimit(.minutes(3))) struct ICYStatusTests {
    private func station(_ configure: (inout ICYStreamServer.Options) -> Void = { _ in }) async throws -> ICYStreamServer {
        var options = ICYStreamServer.Options()
        options.icyStatusLine = true
        options.pace = .asFastAsPossible
        configure(&options)
        return try await ICYStreamServer(file: try await RadioFixtures.shared.url(.station), options: options)
    }

    private func loader(readTimeout: Double? = nil) throws -> LoaderActor {
        var settings = LoaderSettings(cacheDirectory: try Fixtures.shared.scratchDirectory())
        if let readTimeout { settings.readTimeout = readTimeout }
        return LoaderActor(settings: settings)
    }

    /// Decodes `source` into a small queue, as the player does (the decoder waits while nobody
    /// takes from the queue), timed by `stopwatch`.
    private func decode(_ source: any ByteSource, stopwatch: DecodeStopwatch = DecodeStopwatch())
        -> (BoundedQueue<PCMPacket>, Task<Void, any Error>) {
        let queue = BoundedQueue<PCMPacket>(capacity: 4)
        let decoding = Task {
            defer { queue.finish() }
            try await stopwatch.decode(source, into: queue)
        }
        return (queue, decoding)
    }

    /// Takes from `queue` until `frames` stereo frames more have come; false if it ended first.
    private func take(_ frames: Int, from queue: BoundedQueue<PCMPacket>) async -> Bool {
        var taken = 0
        while taken < frames {
            guard let packet = await queue.next() else { return false }
            if case .samples(let samples) = packet { taken += (samples.int16?.count ?? 0) / 2 }
        }
        return true
    }

    /// This process's established TCP connections to `port` on 127.0.0.1.
    private func connections(to port: Int) -> Int {
        let table = ProcFile.read("/proc/net/tcp")
        let remote = String(format: "0100007F:%04X", port)
        return table.split(separator: "\n").dropFirst().filter { line in
            let fields = line.split(separator: " ")
            return fields.count > 3 && fields[2] == remote && fields[3] == "01"
        }.count
    }

    @Test("a station answering `ICY 200 OK` plays from its first bytes, equal to mpg123 of what it sent; ICY titles at their frames; nothing cached")
    func plays() async throws {
        let server = try await station { $0.titles = [.init(at: 0, "Artist A - Song One"), .init(at: 320_000, "Artist B - Song Two")] }
        let (played, cache) = try await LiveStreamTests.play(server.url) { $0.frames >= 25 * 44100 }
        let expected = try await ReferenceDecoder.mpg123(try await RadioFixtures.shared.url(.station))
        #expect(PCMAudio(sampleRate: 44100, channels: 2, samples: Array(played.pcm.prefix(25 * 44100 * 2)))
                == expected.frames(from: 0, to: 25 * 44100))
        try #require(played.songs.count == 2, "\(played.songs)")
        #expect(played.songs[0].frame <= 44100 && played.songs[0].tags == TrackTags(title: "Song One", artist: "Artist A"), "\(played.songs[0])")
        #expect(played.songs[1].tags == TrackTags(title: "Song Two", artist: "Artist B"))
        #expect(abs(played.songs[1].frame - 882_000) <= 2 * 1152, "song two at frame \(played.songs[1].frame)")
        #expect(LiveStreamTests.cachedFiles(in: cache).isEmpty, "\(LiveStreamTests.cachedFiles(in: cache))")
        // One request, whose answer is the one played (its range, asked as of any URL not yet
        // known to be a station, is ignored by the station).
        let requests = try server.requests()
        #expect(requests.count == 1, "\(requests)")
        let ours = try #require(requests.last)
        #expect(ours.header("Icy-MetaData") == "1" && ours.header("User-Agent") == "cloudplayerd", "\(ours)")
        #expect(ours.header("Host") == "127.0.0.1:\(server.port)")
    }

    @Test("each open of a station answering `ICY 200 OK` is one request; once known to be a station, without a range")
    func oneRequestEach() async throws {
        let server = try await station()
        let loader = try loader()
        let location = TrackLocation(url: server.url)
        try await loader.open(location).cancel()
        #expect(try server.requests().count == 1)
        try await loader.open(location).cancel()
        let requests = try server.requests()
        #expect(requests.count == 2 && requests.last?.header("Range") == nil, "\(requests)")
        await loader.shutdown()
    }

    @Test("a connection dropped mid-stream is made again, and the station plays on")
    func reconnects() async throws {
        let server = try await station {
            $0.pace = .times(8)
            $0.fault = .drop(afterBytes: 80_000, connections: 1, resume: true)
        }
        let (played, _) = try await LiveStreamTests.play(server.url) { $0.frames >= 10 * 44100 }
        let requests = try server.requests()
        #expect(requests.count == 2, "\(requests)")
        #expect(requests.last?.start ?? 0 >= 80_000)
        #expect(requests.dropFirst().allSatisfy { $0.header("Range") == nil }, "\(requests)")
        #expect(played.frames >= 10 * 44100 && played.error == nil, "\(String(describing: played.error))")
    }

    @Test("paused far longer than the read timeout, the station keeps its connection (no read timeout while nobody reads) and plays on")
    func pausedKeepsConnection() async throws {
        let server = try await station { $0.loop = true }
        let loader = try loader(readTimeout: 1)
        let source = try await loader.open(TrackLocation(url: server.url))
        let (queue, decoding) = decode(source)
        #expect(await take(2 * 44100, from: queue))
        // Nobody takes: the decoder, the ring and the socket fill, and the station waits — on
        // the same connection, four read timeouts later.
        try await Task.sleep(for: .seconds(4))
        let open = connections(to: server.port)
        #expect(open == 1, "\(open) connections to the paused station, not 1")
        #expect(await take(8 * 44100, from: queue))
        let requests = try server.requests()
        #expect(requests.count == 1, "\(requests)")
        source.cancel()
        decoding.cancel()
        _ = try? await decoding.value
        await loader.shutdown()
    }

    @Test("bad answers: ICY 401, a head that never ends, garbage for a status line — each one clear error")
    func badAnswers() async throws {
        let cases: [((inout ICYStreamServer.Options) -> Void, LoaderError)] = [
            ({ $0.statusLine = "ICY 401 Service Unavailable" }, .refused(source: "web", status: 401)),
            ({ $0.statusLine = "ICY 404 Not Found" }, .notFound),
            ({ $0.endlessHead = true }, .badResponse("the server's answer has more than 64 KiB of headers")),
            ({ $0.statusLine = "SPAM 200 OK" }, .badResponse("the server's answer is neither HTTP nor ICY")),
        ]
        for (configure, expected) in cases {
            let server = try await station(configure)
            let loader = try loader()
            let error = await #expect(throws: LoaderError.self) { _ = try await loader.open(TrackLocation(url: server.url)) }
            #expect(error == expected, "\(String(describing: error))")
            await loader.shutdown()
        }
    }

    @Test("a station that answers `ICY 200 OK` and then stalls: a cancel ends the decoding within a second, and closes the connection")
    func stopWhileStalled() async throws {
        let server = try await station { $0.fault = .stall(afterBytes: 48_000) }
        let loader = try loader()
        let (starved, starving) = AsyncStream<Void>.makeStream()
        let source = try await loader.open(TrackLocation(url: server.url), waiting: { if $0 { starving.yield() } })
        let stopwatch = DecodeStopwatch()
        let (queue, decoding) = decode(source, stopwatch: stopwatch)
        let draining = Task { while await queue.next() != nil {} }
        // The 3 s before the stall are decoded; then the reader starves, waiting for more.
        var heard = starved.makeAsyncIterator()
        _ = await heard.next()
        let open = connections(to: server.port)
        #expect(open == 1, "\(open) connections to the stalled station, not 1")
        let start = ContinuousClock.now
        source.cancel()
        decoding.cancel()
        _ = try? await decoding.value
        let took = try #require(await stopwatch.ended) - start
        #expect(took < .seconds(1), "the decoding ended \(took) after the cancel")
        #expect(try await eventually(within: 1) { connections(to: server.port) == 0 }, "the station's connection stays open")
        await draining.value
        await loader.shutdown()
    }
}

import Foundation
import Loader
import Model
import Testing
import TestSupport

/// Stations that send what they should not: one clear error, or playing on past it — never a
/// crash or a hang.
@Suite(.timeLimit(.minutes(3))) struct LiveStreamBadInputTests {
    private func station(_ configure: (inout ICYStreamServer.Options) -> Void, file: URL? = nil) async throws -> ICYStreamServer {
        var options = ICYStreamServer.Options()
        options.pace = .asFastAsPossible
        configure(&options)
        let station: URL
        if let file { station = file } else { station = try await RadioFixtures.shared.url(.station) }
        return try await ICYStreamServer(file: station, options: options)
    }

    /// Plays `server`'s stream for `seconds` of audio (or until it fails).
    private func play(_ server: ICYStreamServer, seconds: Int = 5) async throws -> LiveStreamTests.Played {
        try await LiveStreamTests.play(server.url, settings: { $0.streamRetry = 1 }) { $0.frames >= seconds * 44100 }.0
    }

    @Test("a station's address that answers a web page, or 404: one clear error")
    func notAStream() async throws {
        let page = try await station { $0.contentType = "text/html; charset=utf-8" }
        await #expect(throws: LoaderError.badResponse("the station's address answers a web page, not audio")) {
            _ = try await LoaderActor(settings: LoaderSettings(cacheDirectory: try Fixtures.shared.scratchDirectory()))
                .open(TrackLocation(url: page.url))
        }
        let missing = try await station { $0.path = "/live" }
        let url = URL(string: "http://127.0.0.1:\(missing.port)/elsewhere")!
        let error = await #expect(throws: LoaderError.self) {
            _ = try await LoaderActor(settings: LoaderSettings(cacheDirectory: try Fixtures.shared.scratchDirectory()))
                .open(TrackLocation(url: url))
        }
        #expect(error == .notFound, "\(String(describing: error))")
    }

    @Test("an icy-metaint of 0, past any server's, or not a number: the stream plays as audio only", arguments: ["0", "99999999999", "abc"])
    func absurdInterval(_ metaint: String) async throws {
        let server = try await station { $0.metaint = metaint }
        let played = try await play(server)
        let expected = try await ReferenceDecoder.mpg123(try await RadioFixtures.shared.url(.station))
        #expect(PCMAudio(sampleRate: 44100, channels: 2, samples: Array(played.pcm.prefix(5 * 44100 * 2))) == expected.frames(from: 0, to: 5 * 44100))
        #expect(played.songs.isEmpty && played.error == nil)
    }

    @Test("titles that are not UTF-8 are read as Latin-1; bytes that are no text at all still make a title, and the audio is intact")
    func titlesNotText() async throws {
        let server = try await station {
            $0.titles = [.init(at: 0, raw: Array("Bj".utf8) + [0xF6] + Array("rk - J".utf8) + [0xF3] + Array("ga".utf8)),
                         .init(at: 32_000, raw: [0x01, 0xFF, 0xFE, 0x00, 0x80, 0x9F])]
        }
        let played = try await play(server)
        #expect(played.songs.first?.tags == TrackTags(title: "Jóga", artist: "Björk"), "\(played.songs)")
        #expect(played.songs.count == 2 && played.error == nil, "\(played.songs)")
        let expected = try await ReferenceDecoder.mpg123(try await RadioFixtures.shared.url(.station))
        #expect(PCMAudio(sampleRate: 44100, channels: 2, samples: Array(played.pcm.prefix(5 * 44100 * 2))) == expected.frames(from: 0, to: 5 * 44100))
    }

    @Test("a metadata block whose length byte runs past its text swallows audio: the decoder resyncs and plays on")
    func overlongBlock() async throws {
        let server = try await station { $0.overlongBlock = (offset: 48_000, continues: true) }
        let played = try await play(server, seconds: 8)
        #expect(played.error == nil && played.frames >= 8 * 44100)
    }

    @Test("a damaged stretch mid-stream (64 KiB of noise between frames): played on past it")
    func damagedStretch() async throws {
        let original = try Data(contentsOf: try await RadioFixtures.shared.url(.station))
        var noise = [UInt8](repeating: 0, count: 64 << 10)
        var state: UInt32 = 12345
        for index in noise.indices {
            state = state &* 1_103_515_245 &+ 12345
            noise[index] = UInt8(truncatingIfNeeded: state >> 16)
        }
        let damaged = try Fixtures.shared.scratchDirectory().appendingPathComponent("damaged.mp3")
        try (original.prefix(80_000) + Data(noise) + original.dropFirst(80_000)).write(to: damaged)
        let server = try await station({ _ in }, file: damaged)
        // 5 s before the noise, then on: 12 s played is well past it.
        let played = try await play(server, seconds: 12)
        #expect(played.error == nil && played.frames >= 12 * 44100, "\(String(describing: played.error)) after \(played.frames)")
        let expected = try await ReferenceDecoder.mpg123(try await RadioFixtures.shared.url(.station))
        #expect(PCMAudio(sampleRate: 44100, channels: 2, samples: Array(played.pcm.prefix(4 * 44100 * 2))) == expected.frames(from: 0, to: 4 * 44100))
    }

    @Test("an MP3 station that changes its sample rate: it plays on past the change (libmpg123 converts the new rate to the first)")
    func rateChange() async throws {
        let folder = try Fixtures.shared.scratchDirectory()
        let first = folder.appendingPathComponent("a.mp3"), second = folder.appendingPathComponent("b.mp3")
        for (file, rate) in [(first, "44100"), (second, "32000")] {
            _ = try await ChildProcess.check("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "sine=f=440:d=4:r=\(rate)", "-ac", "2",
                                                        "-c:a", "libmp3lame", "-b:a", "128k", "-write_xing", "0", "-id3v2_version", "0", file.path])
        }
        let joined = folder.appendingPathComponent("joined.mp3")
        try (try Data(contentsOf: first) + Data(contentsOf: second)).write(to: joined)
        let server = try await station({ _ in }, file: joined)
        // 4 s at 44.1 kHz, then the 32 kHz part: 6 s played is 2 s into it.
        let played = try await LiveStreamTests.play(server.url) { $0.frames >= 6 * 44100 }.0
        #expect(played.rates == [44100], "\(played.rates)")
        #expect(played.error == nil && played.frames >= 6 * 44100)
    }
}

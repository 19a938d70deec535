import ComponentTestSupport
import Decoding
import Foundation
import Loader
import Model
import Testing
import TestSupport

/// Each decoder says the bitrate of its audio (MPD's `status` and `cloudplayerctl status` show
/// it): a constant rate as encoded, a variable one as the audio's bytes over its length — with
/// tags and pictures left out, so a 1 MB cover does not make a track "heavier".
@Suite struct DecoderBitrateTests {
    static func bitrate(_ file: URL) throws -> Int? {
        try DecoderActor.open(try FileByteSource(path: file.path)).info.bitrate
    }

    @Test("constant rates as encoded: LAME CBR with and without an Info header, WAV and AIFF as stored")
    func constant() async throws {
        #expect(try Self.bitrate(try await Fixtures.shared.url(.longCBRMP3)) == 128)
        #expect(try Self.bitrate(try await Fixtures.shared.url(.plainCBRMP3)) == 160)
        let scratch = try Fixtures.shared.scratchDirectory()
        for (name, rate, channels, bits, expected) in [("wide.wav", 48000, 2, 24, 2304), ("mono.aiff", 44100, 1, 16, 706)] {
            let file = scratch.appendingPathComponent(name)
            try await ChildProcess.check("sox", ["-n", "-r", String(rate), "-c", String(channels), "-b", String(bits), file.path,
                                                 "synth", "1", "sine", "440"])
            #expect(try Self.bitrate(file) == expected, "\(name)")
        }
    }

    @Test("variable rates over the audio alone: the same with a 1 MB cover as without, and the file's size over its length without it",
          arguments: [Fixtures.File.longMP3, .longFLAC, .longM4A, .longOpus])
    func coverLeftOut(_ fixture: Fixtures.File) async throws {
        let plain = try await Fixtures.shared.url(fixture)
        let covered = try await Tagger.withPicture(plain, to: try Fixtures.shared.scratchDirectory(),
                                                    named: plain.lastPathComponent, bytes: 1 << 20)
        let coveredSize = try #require(try FileManager.default.attributesOfItem(atPath: covered.path)[.size] as? Int)
        let plainSize = try #require(try FileManager.default.attributesOfItem(atPath: plain.path)[.size] as? Int)
        // (Less than the whole megabyte more where the tags' padding took some of it.)
        #expect(coveredSize - plainSize > 1 << 19, "the cover is in the copy: \(plainSize) → \(coveredSize) bytes")
        let decoder = try DecoderActor.open(try FileByteSource(path: plain.path))
        let seconds = try #require(decoder.info.duration)
        let bitrate = try #require(decoder.info.bitrate)
        // The fixtures' tags are a few hundred bytes: their whole size is nearly all audio.
        let estimate = Double(plainSize) * 8 / seconds / 1000
        #expect(abs(Double(bitrate) - estimate) <= estimate * 0.02, "\(fixture): \(bitrate) kbit/s, the file's size says \(estimate)")
        let withCover = try #require(try Self.bitrate(covered))
        #expect(abs(withCover - bitrate) <= 1, "\(fixture): \(withCover) kbit/s with the cover, \(bitrate) without")
        print("bitrate of \(fixture.rawValue): \(bitrate) kbit/s, \(withCover) with a 1 MB cover (size over length: \(Int(estimate)))")
    }

    @Test("a Vorbis file's average over its audio, its comments' picture left out")
    func vorbis() async throws {
        let plain = try await Fixtures.shared.url(.vorbis)
        let covered = try await Tagger.withPicture(plain, to: try Fixtures.shared.scratchDirectory(), named: "song.ogg", bytes: 1 << 20)
        let bitrate = try #require(try Self.bitrate(plain))
        #expect((60...200).contains(bitrate), "oggenc -q 3 aims at about 112 kbit/s: \(bitrate)")
        #expect(try Self.bitrate(covered) == bitrate)
    }

    @Test("AAC in ADTS (a station's stream): the rate of its first frames, near what it was encoded at")
    func adts() async throws {
        let file = try await ADTSDecoderTests.makeLC()
        let bitrate = try #require(try Self.bitrate(file))
        #expect((96...160).contains(bitrate), "encoded at 128 kbit/s: \(bitrate)")
    }
}

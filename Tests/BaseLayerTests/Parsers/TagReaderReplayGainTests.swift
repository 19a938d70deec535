import ComponentTestSupport
import Foundation
import Model
import Parsers
import Testing
import TestSupport

/// ReplayGain tags as taggers write them (mutagen, which Picard and beets use): `TXXX` and
/// `RVA2` frames in MP3, `REPLAYGAIN_*` comments in FLAC and Vorbis, `R128_*` in Opus — and the
/// gain LAME writes in its header — read by the scan's ranged reads, as the library stores them.
@Suite struct TagReaderReplayGainTests {
    private func scan(_ file: Fixtures.File, named name: String, fields: [String: String],
                      rva2: [Tagger.RVA2] = []) async throws -> ReplayGain {
        let tagged = try await Tagger.copy(try await Fixtures.shared.url(file), to: try Fixtures.shared.scratchDirectory(),
                                           named: name, fields: fields, rva2: rva2)
        return try await VirtualFile([UInt8](Data(contentsOf: tagged))).read().tags.replayGain
    }

    @Test func mp3TXXXFrames() async throws {
        let gain = try await scan(.vbrMP3, named: "a.mp3", fields: ["REPLAYGAIN_TRACK_GAIN": "-6.48 dB", "REPLAYGAIN_TRACK_PEAK": "0.988547",
                                                                    "replaygain_album_gain": "+1.50 dB", "REPLAYGAIN_ALBUM_PEAK": "1.2"])
        #expect(gain == ReplayGain(trackGain: -6.48, trackPeak: 0.988547, albumGain: 1.5, albumPeak: 1.2))
    }

    /// RVA2: the gain in 1/512 dB, the peak as a 16-bit fraction of full scale (mutagen's).
    @Test func mp3RVA2Frames() async throws {
        let gain = try await scan(.vbrMP3, named: "b.mp3", fields: [:],
                                  rva2: [Tagger.RVA2("track", gain: -4.5, peak: 0.75), Tagger.RVA2("album", gain: 2.25, peak: 0.5)])
        #expect(gain == ReplayGain(trackGain: -4.5, trackPeak: 0.75, albumGain: 2.25, albumPeak: 0.5))
    }

    /// TXXX frames win over RVA2 ones: they are what ReplayGain scanners write today.
    @Test func mp3TXXXBeforeRVA2() async throws {
        let gain = try await scan(.vbrMP3, named: "c.mp3", fields: ["REPLAYGAIN_TRACK_GAIN": "-3.00 dB"],
                                  rva2: [Tagger.RVA2("track", gain: -9, peak: 0.5)])
        #expect(gain.trackGain == -3)
    }

    @Test(arguments: [(Fixtures.File.flac, "a.flac"), (.vorbis, "a.ogg")])
    func comments(_ file: Fixtures.File, _ name: String) async throws {
        let gain = try await scan(file, named: name, fields: ["REPLAYGAIN_TRACK_GAIN": "-3.5 dB", "REPLAYGAIN_TRACK_PEAK": "0.25",
                                                              "REPLAYGAIN_ALBUM_GAIN": "-4 dB", "REPLAYGAIN_ALBUM_PEAK": "0.5"])
        #expect(gain == ReplayGain(trackGain: -3.5, trackPeak: 0.25, albumGain: -4, albumPeak: 0.5))
    }

    /// Opus: R128 gains in Q7.8 dB toward −23 LUFS, 5 dB added to aim where ReplayGain does;
    /// they win over `REPLAYGAIN_*` comments in the same file.
    @Test func opusR128() async throws {
        let gain = try await scan(.opus, named: "a.opus", fields: ["R128_TRACK_GAIN": "-2560", "R128_ALBUM_GAIN": "384",
                                                                   "REPLAYGAIN_TRACK_GAIN": "+3.00 dB"])
        #expect(gain == ReplayGain(trackGain: -5, albumGain: 6.5))
    }

    /// LAME measures a track gain as it encodes (by default): read from its header when no tagger
    /// wrote one, as eyeD3's lameinfo reads it; a TXXX tag wins over it.
    @Test func lameHeaderGain() async throws {
        let file = try await Fixtures.shared.url(.vbrMP3)
        let info = try await ChildProcess.check("eyeD3", ["-P", "lameinfo", file.path]).stdout
        let line = try #require(info.split(separator: "\n").first { $0.contains("Radio Replay Gain") }, "\(info)")
        let reference = try #require(line.split(separator: ":").last?.split(separator: " ").first.flatMap { Double($0) }, "\(line)")
        let scanned = try await VirtualFile([UInt8](Data(contentsOf: file))).read().tags.replayGain
        #expect(scanned.trackGain == reference)
        #expect(try await scan(.vbrMP3, named: "lame.mp3", fields: ["REPLAYGAIN_TRACK_GAIN": "-1.25 dB"]).trackGain == -1.25)
    }

    /// Garbage in a gain field is no gain, not an error: the track still scans.
    @Test func nonsenseIsNoValue() async throws {
        let gain = try await scan(.flac, named: "b.flac", fields: ["REPLAYGAIN_TRACK_GAIN": "loud", "REPLAYGAIN_ALBUM_GAIN": "-999 dB",
                                                                   "REPLAYGAIN_TRACK_PEAK": "nan"])
        #expect(gain == ReplayGain())
    }
}

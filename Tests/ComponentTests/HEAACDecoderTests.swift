import Decoding
import Foundation
import Loader
import Model
import Testing
import TestSupport

/// HE-AAC (SBR) and HE-AACv2 (SBR and PS) in MP4, from encoders Debian does not have (fixtures
/// in Tests/MediaFixtures, their origins in its README): each plays at the rate SBR decodes to
/// — also where its configuration does not say so — to ffmpeg's decode sample for sample, with
/// the encoder's delay and padding trimmed as its edit list says, in the track's time.
///
/// A seek lands on its frame, and plays to the exact end; its samples are not compared: these
/// files are noise, which the decoder makes up (PNS, SBR's noise floor) from generators that a
/// seek does not put back where a decode from the start would have them.
@Suite struct HEAACDecoderTests {
    struct Fixture: Sendable, CustomTestStringConvertible {
        var name: String
        var rate: Int
        var channels: Int
        /// Frames of the whole decode skipped at the start (the edit's media time, at the output rate).
        var start: Int
        var frames: Int
        var testDescription: String { name }
    }

    static let fixtures = [
        Fixture(name: "heaac-explicit.m4a", rate: 48000, channels: 2, start: 3322, frames: 192_000),
        Fixture(name: "heaac-implicit-mono-core.m4a", rate: 44100, channels: 2, start: 3314, frames: 176_400),
        Fixture(name: "heaac-v2-implicit.m4a", rate: 24000, channels: 2, start: 5119, frames: 96000),
        Fixture(name: "heaac-downsampled-sbr.m4a", rate: 48000, channels: 2, start: 1600, frames: 192_000),
        // Timed at its 22050 Hz core rate, without an edit list: every tick two frames.
        Fixture(name: "heaac-nero-core-timescale.m4a", rate: 44100, channels: 1, start: 0, frames: 49152),
    ]

    static func url(_ name: String) -> URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../MediaFixtures/\(name)").standardizedFileURL
    }

    /// ffmpeg's decode of every frame, the edit list not applied (`-ignore_editlist 1`): ffmpeg
    /// 5.1 doubles an SBR track's skip even where its timescale is the output rate.
    static func wholeDecode(_ file: URL) async throws -> [Int32] {
        let raw = try Fixtures.shared.scratchDirectory().appendingPathComponent("whole.raw")
        try await ChildProcess.check("ffmpeg", ["-nostdin", "-loglevel", "error", "-ignore_editlist", "1", "-i", file.path, "-f", "s16le", raw.path])
        let bytes = try [UInt8](Data(contentsOf: raw))
        return stride(from: 0, to: bytes.count, by: 2).map { Int32(Int16(bitPattern: UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8)) }
    }

    @Test("HE-AAC plays at SBR's rate, equal to ffmpeg's decode of the frames its edit list keeps; seeks land on their frame and play to the end",
          arguments: fixtures)
    func exactAgainstFFmpeg(_ fixture: Fixture) async throws {
        let file = Self.url(fixture.name)
        let whole = try await Self.wholeDecode(file)
        let decoder = try DecoderActor.open(try FileByteSource(path: file.path))
        let channels = fixture.channels
        #expect(decoder.info.codec == .aac)
        #expect(decoder.info.format == PCMFormat(sampleRate: fixture.rate, channels: channels, bitsPerSample: 16))
        #expect(decoder.info.totalFrames == Int64(fixture.frames))
        let decoded = PCMFileDecoderTests.readToEnd(decoder)
        #expect(decoded.error == nil)
        #expect(decoded.samples.count == fixture.frames * channels)
        let kept = Array(whole[(fixture.start * channels)..<((fixture.start + fixture.frames) * channels)])
        #expect(firstDifference(decoded.samples, kept) == nil)
        for target in [fixture.frames / 3 + 5, fixture.frames - 3000] {
            try decoder.seek(toFrame: Int64(target))
            let rest = PCMFileDecoderTests.readToEnd(decoder).samples
            #expect(decoder.position == Int64(fixture.frames))
            #expect(rest.count == (fixture.frames - target) * channels, "from frame \(target)")
        }
    }
}

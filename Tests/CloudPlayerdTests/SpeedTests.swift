import Foundation
import Testing
import TestSupport

/// Speed with the pitch kept (`play --speed`, SoundTouch), into a WAV file: how long the output
/// lasts and the pitch of a tone, measured; at 1 the samples are the file's, bit for bit.
@Suite struct SpeedTests {
    /// A 440 Hz tone, 10 s, stereo, made by sox (its length and pitch are what is measured).
    private static func tone(bits: Int, rate: Int) async throws -> URL {
        let file = try Fixtures.shared.scratchDirectory().appendingPathComponent("tone.wav")
        try await ChildProcess.check("sox", ["-n", "-r", "\(rate)", "-c", "2", "-b", "\(bits)", file.path, "synth", "10", "sine", "440", "vol", "0.5"])
        return file
    }

    /// `cloudplayerd play --output wav:` of `files`, with `--speed` if given.
    private static func play(_ files: [URL], speed: String?) async throws -> WAVFile {
        let output = try Fixtures.shared.scratchDirectory().appendingPathComponent("out.wav")
        let arguments = ["play", "--quiet", "--output", "wav:\(output.path)"] + (speed.map { ["--speed", $0] } ?? []) + files.map(\.path)
        let result = try await BuiltProducts.runCloudPlayerd(arguments)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        return try WAVFile(output)
    }

    @Test("the output at 2 lasts half as long, at 0.5 twice, at 1.5 two thirds (±1 %), and a 440 Hz tone stays at 440 Hz (±1 %), 16- and 24-bit",
          arguments: [(2.0, 16, 44100), (0.5, 16, 44100), (1.5, 16, 48000), (1.25, 24, 96000), (3.0, 24, 44100)])
    func lengthAndPitch(_ speed: Double, _ bits: Int, _ rate: Int) async throws {
        let tone = try await Self.tone(bits: bits, rate: rate)
        let input = try WAVFile(tone)
        let output = try await Self.play([tone], speed: String(speed))
        #expect(output.sampleRate == rate && output.channels == 2 && output.bitsPerSample == bits)
        let expected = Double(input.frameCount) / speed
        #expect(abs(Double(output.frameCount) - expected) <= 0.01 * expected, "\(output.frameCount) frames, expected \(expected)")
        // Zero crossings over all but the first and last second: 1/8 Hz or finer.
        let heard = Self.audio(output)
        let frequency = try #require(heard.toneFrequency(in: rate..<(heard.frameCount - rate)))
        #expect(abs(frequency - 440) <= 4.4, "the tone is at \(frequency) Hz")
    }

    @Test("at 1 (--speed 1, or none) the output is the file's samples, bit for bit, and two tracks at 2 last half as long together")
    func unityAndGapless() async throws {
        let tone = try await Self.tone(bits: 16, rate: 44100)
        let input = try WAVFile(tone)
        #expect(try await Self.play([tone], speed: nil) == input)
        #expect(try await Self.play([tone], speed: "1") == input)
        let pair = try await Self.play([tone, tone], speed: "2")
        let expected = Double(2 * input.frameCount) / 2
        #expect(abs(Double(pair.frameCount) - expected) <= 0.01 * expected, "\(pair.frameCount) frames, expected \(expected)")
    }

    @Test("a speed outside 0.5 to 3 is one clear error")
    func refusedSpeed() async throws {
        let result = try await BuiltProducts.runCloudPlayerd(["play", "--quiet", "--output", "null", "--speed", "4", "/nonexistent.wav"])
        #expect(result.status != 0 && result.stderr.contains("--speed must be from 0.5 to 3"), "\(result.stderr)")
    }

    /// The samples as 16-bit (24-bit ones by their top two bytes): enough to count crossings.
    private static func audio(_ file: WAVFile) -> PCMAudio {
        let width = file.bitsPerSample / 8
        var samples: [Int16] = []
        samples.reserveCapacity(file.data.count / width)
        var index = 0
        while index + width <= file.data.count {
            samples.append(Int16(bitPattern: UInt16(file.data[index + width - 2]) | UInt16(file.data[index + width - 1]) << 8))
            index += width
        }
        return PCMAudio(sampleRate: file.sampleRate, channels: file.channels, samples: samples)
    }
}

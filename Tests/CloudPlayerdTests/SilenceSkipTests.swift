import Foundation
import Testing
import TestSupport

/// Skip silence (`play --skip-silence`, `[playback] skip_silence`): a file with silences of known
/// lengths, played into a WAV file and through the daemon.
@Suite(.timeLimit(.minutes(3))) struct SilenceSkipTests {
    /// 2 s of a 440 Hz tone, 3 s of silence, 2 s of tone, 0.3 s of silence, `last` s of tone (sox):
    /// the 3 s silence is long (over 0.5 s) and keeps its first 0.25 s; the 0.3 s one is short.
    private static func spoken(bits: Int = 16, last: Int = 1) async throws -> URL {
        let folder = try Fixtures.shared.scratchDirectory()
        let file = folder.appendingPathComponent("spoken.wav")
        func part(_ name: String, _ effect: [String]) async throws -> String {
            let path = folder.appendingPathComponent(name).path
            try await ChildProcess.check("sox", ["-n", "-r", "44100", "-c", "2", "-b", "\(bits)", path] + effect)
            return path
        }
        let parts = [try await part("a.wav", ["synth", "2", "sine", "440", "vol", "0.5"]),
                     try await part("b.wav", ["trim", "0", "3"]),
                     try await part("c.wav", ["synth", "2", "sine", "660", "vol", "0.5"]),
                     try await part("d.wav", ["trim", "0", "0.3"]),
                     try await part("e.wav", ["synth", "\(last)", "sine", "550", "vol", "0.5"])]
        try await ChildProcess.check("sox", parts + [file.path])
        return file
    }

    private static func play(_ file: URL, _ extra: [String]) async throws -> WAVFile {
        let output = try Fixtures.shared.scratchDirectory().appendingPathComponent("out.wav")
        let result = try await BuiltProducts.runCloudPlayerd(["play", "--quiet", "--output", "wav:\(output.path)"] + extra + [file.path])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        return try WAVFile(output)
    }

    @Test("the 3 s silence becomes 0.25 s, the 0.3 s one stays: 5.55 s to within 4 frames; the sound before and after passes bit for bit; off, the file as it is",
          arguments: [16, 24])
    func exactLength(_ bits: Int) async throws {
        let file = try await Self.spoken(bits: bits)
        let input = try WAVFile(file)
        let output = try await Self.play(file, ["--skip-silence"])
        let expected = Int((5.55 * 44100).rounded())
        #expect(abs(output.frameCount - expected) <= 4, "\(output.frameCount) frames, expected \(expected)")
        #expect(output.frames(from: 0).data.prefix(2 * 44100 * output.bytesPerFrame) == input.data.prefix(2 * 44100 * input.bytesPerFrame),
                "the first 2 s as they are")
        let tail = 1 * 44100 * input.bytesPerFrame + 0.3.frames * input.bytesPerFrame
        #expect(output.data.suffix(tail) == input.data.suffix(tail), "the short silence and the last second as they are")
        #expect(try await Self.play(file, ["--no-skip-silence"]) == input)
    }

    @Test("with --speed 2 as well: half of the shortened length (±1 %)")
    func withSpeed() async throws {
        let file = try await Self.spoken()
        let output = try await Self.play(file, ["--skip-silence", "--speed", "2"])
        let expected = 5.55 * 44100 / 2
        #expect(abs(Double(output.frameCount) - expected) <= 0.01 * expected, "\(output.frameCount) frames, expected \(expected)")
    }

    @Test("through the daemon with [playback] skip_silence: the time saved in status, the position in the track's time")
    func savedInStatus() async throws {
        // The last tone 20 s long: the track still plays when the status is read.
        let file = try await Self.spoken(last: 20)
        let rig = try await DaemonRig.start(config: "[playback]\nskip_silence = true\n")
        defer { Task { await rig.stop() } }
        #expect(try await rig.ctl("queue", "add", file.path, "--play").status == 0)
        #expect(try await eventually(within: 30) { try await rig.status()["silence_skipped"] as? Double ?? 0 > 0 })
        let saved = try #require(try await rig.status()["silence_skipped"] as? Double)
        #expect(abs(saved - 2.75) < 0.001, "3 s less the 0.25 s kept, to the frame: \(saved)")
        // Past the silence, the position counts it: the track's own time, not the time it played —
        // as the output says where it is when paused.
        #expect(try await rig.ctl("pause").status == 0)
        #expect(try await eventually(within: 20) { try await rig.status()["status"] as? String == "Paused" })
        let position = try #require(try await rig.status()["position"] as? Double)
        #expect(position >= 4.99 && position < 20, "at \(position) s, in the second tone")
        let shown = try await rig.ctl("status").stdout
        #expect(shown.contains("silence skipped: 0:03 saved"), "\(shown)")
    }
}

private extension Double {
    /// Frames at 44.1 kHz.
    var frames: Int { Int((self * 44100).rounded()) }
}

import Foundation
import Testing
import TestSupport

/// WAV and AIFF through `play --output wav:`: sample-exact starts, and tracks that join gaplessly.
@Suite struct PCMFilePlaybackTests {
    /// sox's 16-bit conversion of a file, as a recording.
    private func reference(_ file: URL) async throws -> PCMAudio {
        let wav = try Fixtures.shared.scratchDirectory().appendingPathComponent("reference.wav")
        try await ChildProcess.check("sox", ["-D", file.path, "-b", "16", "-e", "signed", wav.path])
        return try PCMAudio(wavFile: wav)
    }

    /// 2 s of noise and tone, written by sox as `name` (its suffix says WAV or AIFF).
    private func track(_ name: String) async throws -> URL {
        let url = try Fixtures.shared.scratchDirectory().appendingPathComponent(name)
        try await ChildProcess.check("sox", RepeatableTool.arguments(for: "sox", ["-n", "-r", "44100", "-c", "2", "-b", "16", url.path,
                                             "synth", "2", "pinknoise", "sine", "300", "gain", "-n", "-1"]))
        return url
    }

    @Test("--start 0.5 on a WAV starts at frame 22050 exactly, and an AIFF after it follows with no gap and no overlap")
    func startAndGapless() async throws {
        let wav = try await track("a.wav")
        let aiff = try await track("b.aiff")
        let output = try Fixtures.shared.scratchDirectory().appendingPathComponent("out.wav")
        let result = try await BuiltProducts.runCloudPlayerd(["play", "--quiet", "--output", "wav:\(output.path)", "--start", "0.5",
                                                              wav.path, aiff.path])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let expected = try await reference(wav).frames(from: 22050) + (try await reference(aiff))
        let played = try PCMAudio(wavFile: output)
        #expect(played.frameCount == expected.frameCount)
        #expect(played == expected)
    }
}

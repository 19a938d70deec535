import Foundation

/// The reference decoders that say what correct PCM is: `mpg123` and `opusdec`.
public enum ReferenceDecoder {
    /// `mpg123 -w`: what libmpg123's own player writes (gapless, 16-bit).
    public static func mpg123(_ url: URL) async throws -> PCMAudio {
        let output = try Fixtures.shared.scratchDirectory().appendingPathComponent("ref.wav")
        try await ChildProcess.check("mpg123", ["-q", "-w", output.path, url.path])
        return try PCMAudio(wavFile: output)
    }

    /// `opusdec --rate 48000`, with or without its default dither.
    public static func opusdec(_ url: URL, dither: Bool = false) async throws -> PCMAudio {
        let output = try Fixtures.shared.scratchDirectory().appendingPathComponent("ref.wav")
        try await ChildProcess.check("opusdec", ["--quiet", "--rate", "48000"] + (dither ? [] : ["--no-dither"]) + [url.path, output.path])
        return try PCMAudio(wavFile: output)
    }
}

import Foundation

/// The reference decoders that say what correct PCM is: `mpg123`, `opusdec`, `flac -d`, `oggdec`.
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

    /// `flac -d`: libFLAC's own tool, at the file's depth (it checks the MD5 as it goes).
    public static func flac(_ url: URL) async throws -> WAVFile {
        let output = try Fixtures.shared.scratchDirectory().appendingPathComponent("ref.wav")
        try await ChildProcess.check("flac", ["--silent", "-d", "-f", "-o", output.path, url.path])
        return try WAVFile(output)
    }

    /// `oggdec`: libvorbisfile's own tool, 16-bit.
    public static func oggdec(_ url: URL) async throws -> PCMAudio {
        let output = try Fixtures.shared.scratchDirectory().appendingPathComponent("ref.wav")
        try await ChildProcess.check("oggdec", ["--quiet", "-o", output.path, url.path])
        return try PCMAudio(wavFile: output)
    }
}

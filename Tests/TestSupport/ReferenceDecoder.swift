import Foundation

/// The reference decoders that say what correct PCM is: `mpg123`, `opusdec`, `flac -d`, `oggdec`,
/// `ffmpeg` (for AAC and ALAC: libavcodec's own tool).
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

    /// `ffmpeg -f wav`, 16-bit: the edit list's delay skipped, its padding kept up to a whole frame
    /// (cloudplayerd drops it: compare its length to the encoded one, and its samples to a prefix).
    public static func ffmpeg(_ url: URL) async throws -> PCMAudio {
        let output = try Fixtures.shared.scratchDirectory().appendingPathComponent("ref.wav")
        try await ChildProcess.check("ffmpeg", ["-nostdin", "-loglevel", "error", "-i", url.path, "-c:a", "pcm_s16le", output.path])
        return try PCMAudio(wavFile: output)
    }

    /// `oggdec`: libvorbisfile's own tool, 16-bit.
    public static func oggdec(_ url: URL) async throws -> PCMAudio {
        let output = try Fixtures.shared.scratchDirectory().appendingPathComponent("ref.wav")
        try await ChildProcess.check("oggdec", ["--quiet", "-o", output.path, url.path])
        return try PCMAudio(wavFile: output)
    }
}

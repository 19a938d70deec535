import Foundation

/// Test audio, made once per test run from public tools (sox, lame, opusenc) in a temporary
/// folder, plus the bad inputs the player must survive. Names deliberately lie about content
/// in places (`opus-named.mp3` holds Opus): formats are sniffed from bytes.
public actor Fixtures {
    public enum File: String, CaseIterable, Sendable {
        // Good audio
        case vbrMP3 = "vbr.mp3"                // LAME -V2, ID3v2 tags, Xing/LAME header
        case cbrMP3 = "cbr.mp3"                // LAME 128 kbit/s CBR, Info header
        case secondMP3 = "second.mp3"          // another VBR track, for gapless pairs
        case monoMP3 = "mono-22k.mp3"          // 22.05 kHz mono
        case opus = "stereo.opus"              // Opus with tags
        case secondOpus = "second.opus"
        case monoOpus = "mono.opus"
        case opusNamedMP3 = "opus-named.mp3"   // Opus bytes under an .mp3 name
        case coverArt = "cover.png"            // a 1×1 PNG
        case artMP3 = "art.mp3"                // ID3v2 APIC front cover
        case artOpus = "art.opus"              // METADATA_BLOCK_PICTURE
        case longMP3 = "long.mp3"              // 60 s, LAME -V2: about 1 MB, for streaming
        case longOpus = "long.opus"            // 60 s Opus
        // Bad input
        case empty = "empty.mp3"
        case random = "random.mp3"
        case text = "notes.mp3"
        case flac = "song.flac"
        case wav = "song.wav"
        case truncatedMP3 = "truncated.mp3"
        case truncatedOpus = "truncated.opus"
        case corruptMP3 = "corrupt.mp3"
    }

    public static let shared = Fixtures()

    /// One generation for the whole run, however many tests ask at once.
    private var generation: Task<URL, any Error>?

    /// The path of a fixture, making all of them on first use.
    public func url(_ file: File) async throws -> URL {
        try await prepared().appendingPathComponent(file.rawValue)
    }

    /// A fresh empty folder for one test's output files.
    public nonisolated func scratchDirectory() throws -> URL {
        try ScratchSpace.directory()
    }

    private func prepared() async throws -> URL {
        if generation == nil {
            generation = Task { try await Self.generate(in: try scratchDirectory()) }
        }
        return try await generation!.value
    }

    private static func generate(in dir: URL) async throws -> URL {
        func path(_ name: String) -> String { dir.appendingPathComponent(name).path }
        func write(_ path: String, _ data: Data) throws { try data.write(to: URL(fileURLWithPath: path)) }
        func sox(_ arguments: String...) async throws { try await ChildProcess.check("sox", arguments) }

        // Sources: noise with a tone, so every stretch of audio is distinct and never all zero.
        try await sox("-n", "-r", "44100", "-c", "2", "-b", "16", path("a.wav"),
                      "synth", "6", "pinknoise", "synth", "6", "sine", "amod", "440", "vol", "0.5")
        try await sox("-n", "-r", "44100", "-c", "2", "-b", "16", path("b.wav"),
                      "synth", "5", "brownnoise", "synth", "5", "sine", "amod", "660", "vol", "0.5")
        try await sox("-n", "-r", "22050", "-c", "1", "-b", "16", path("m.wav"), "synth", "4", "pinknoise", "vol", "0.5")
        try await sox("-n", "-r", "44100", "-c", "2", "-b", "16", path("l.wav"),
                      "synth", "60", "pinknoise", "synth", "60", "sine", "amod", "330", "vol", "0.5")

        try await ChildProcess.check("lame", ["--quiet", "-V", "2", "--id3v2-only", "--tt", "Vbr Title", "--ta", "Some Artist",
                                              "--tl", "Some Album", "--tn", "3/12", path("a.wav"), path(File.vbrMP3.rawValue)])
        try await ChildProcess.check("lame", ["--quiet", "-b", "128", path("a.wav"), path(File.cbrMP3.rawValue)])
        try await ChildProcess.check("lame", ["--quiet", "-V", "4", path("b.wav"), path(File.secondMP3.rawValue)])
        try await ChildProcess.check("lame", ["--quiet", "-m", "m", "-b", "64", path("m.wav"), path(File.monoMP3.rawValue)])
        try await ChildProcess.check("opusenc", ["--quiet", "--title", "Opus Title", "--artist", "Opus Artist",
                                                 "--album", "Opus Album", "--comment", "TRACKNUMBER=7",
                                                 path("a.wav"), path(File.opus.rawValue)])
        try await ChildProcess.check("opusenc", ["--quiet", path("b.wav"), path(File.secondOpus.rawValue)])
        try await ChildProcess.check("lame", ["--quiet", "-V", "2", path("l.wav"), path(File.longMP3.rawValue)])
        try await ChildProcess.check("opusenc", ["--quiet", path("l.wav"), path(File.longOpus.rawValue)])
        try await ChildProcess.check("opusenc", ["--quiet", path("m.wav"), path(File.monoOpus.rawValue)])
        try FileManager.default.copyItem(atPath: path(File.opus.rawValue), toPath: path(File.opusNamedMP3.rawValue))
        try write(path(File.coverArt.rawValue), Data(base64Encoded: Self.onePixelPNG)!)
        try await ChildProcess.check("lame", ["--quiet", "-V", "4", "--ti", path(File.coverArt.rawValue), "--tt", "Art Title",
                                              path("m.wav"), path(File.artMP3.rawValue)])
        try await ChildProcess.check("opusenc", ["--quiet", "--picture", path(File.coverArt.rawValue), "--title", "Art Title",
                                                 path("m.wav"), path(File.artOpus.rawValue)])

        try write(path(File.empty.rawValue), Data())
        try write(path(File.random.rawValue), Data(Self.noise(count: 200_000, seed: 7)))
        try write(path(File.text.rawValue), Data(String(repeating: "These are not the droids.\n", count: 400).utf8))
        try await sox(path("a.wav"), path(File.flac.rawValue))
        try FileManager.default.copyItem(atPath: path("a.wav"), toPath: path(File.wav.rawValue))
        let vbr = try Data(contentsOf: dir.appendingPathComponent(File.vbrMP3.rawValue))
        try write(path(File.truncatedMP3.rawValue), vbr.prefix(vbr.count / 2))
        let opus = try Data(contentsOf: dir.appendingPathComponent(File.opus.rawValue))
        try write(path(File.truncatedOpus.rawValue), opus.prefix(opus.count / 2))
        // A good start, then 30 KB of noise where frames should be, then the rest of the file.
        var corrupt = vbr
        corrupt.replaceSubrange(20_000..<50_000, with: Self.noise(count: 30_000, seed: 11))
        try write(path(File.corruptMP3.rawValue), corrupt)

        return dir
    }

    static let onePixelPNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="

    /// Deterministic pseudo-random bytes (xorshift), so a failing case can be reproduced.
    public static func noise(count: Int, seed: UInt64) -> [UInt8] {
        var state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
        return (0..<count).map { _ in
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return UInt8(truncatingIfNeeded: state >> 24)
        }
    }
}

import Foundation

/// Test audio, made once per test run from public tools (sox, lame, opusenc, flac, oggenc) in a temporary
/// folder, plus the bad inputs the player must survive. Each is the same bytes on every run: the
/// tools run in their repeatable modes (`RepeatableTool`) and the damage is placed, not drawn. Names deliberately lie about content
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
        case longCBRMP3 = "long-cbr.mp3"       // 60 s, LAME 128 kbit/s CBR with an Info header
        case plainCBRMP3 = "plain-cbr.mp3"     // 60 s, LAME 160 kbit/s CBR without any Xing/Info header
        case flac = "song.flac"                // 16-bit 44.1 kHz, tags, seek table
        case secondFLAC = "second.flac"
        case flac24 = "hires.flac"             // 24-bit 96 kHz
        case surroundFLAC = "surround.flac"    // 5.1, 24-bit 48 kHz
        case id3FLAC = "id3.flac"              // an ID3v2 tag before the FLAC stream
        case oggFLAC = "song.oga"              // FLAC in Ogg (flac --ogg)
        case bigPictureFLAC = "big-picture.flac"  // tags behind a 2 MB PICTURE and 1 MB PADDING
        case longFLAC = "long.flac"            // 60 s, for streaming
        case longM4A = "long.m4a"              // 60 s AAC, its moov after the audio (ffmpeg's default)
        case vorbis = "song.ogg"               // Ogg Vorbis q3 with tags
        case secondVorbis = "second.ogg"
        case monoVorbis = "mono.ogg"
        case chainedVorbis = "chained.ogg"     // two links of the same format, one after the other
        case surroundVorbis = "surround.ogg"   // 5.1 from a WAVE-order file of six tones, 200…1200 Hz
        case mixedChainVorbis = "mixed-chain.ogg"  // song.ogg (44.1 kHz stereo), then mono.ogg (22.05 kHz mono)
        // Bad input
        case empty = "empty.mp3"
        case random = "random.mp3"
        case text = "notes.mp3"
        /// Compressed audio in WAV (Microsoft ADPCM): named, not played.
        case adpcmWAV = "adpcm.wav"
        case truncatedMP3 = "truncated.mp3"
        case truncatedOpus = "truncated.opus"
        case corruptMP3 = "corrupt.mp3"
        case truncatedFLAC = "truncated.flac"
        case corruptFLAC = "corrupt.flac"      // the middle frame's CRC-16 damaged, nothing else
        case lyingFLAC = "lying.flac"          // STREAMINFO declares twice the samples there are
        case truncatedVorbis = "truncated.ogg"
        case brokenChainVorbis = "broken-chain.ogg"  // a second link whose pages are damaged
        case eightBitFLAC = "8bit.flac"        // plays, shifted up to 16 bits
        case thirtyTwoBitFLAC = "32bit.flac"   // 32-bit (flac 1.4), a quarter second of noise
        case highRateFLAC = "384k.flac"        // refused: above 192 kHz
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

    /// Every fixture: the sources first, then every encoding at once, then the files made from
    /// those. Each encoder is a process of its own; one after another, on a machine loaded as
    /// the suite's rule allows, they kept the first tests waiting past their time limits.
    private static func generate(in dir: URL) async throws -> URL {
        @Sendable func path(_ name: String) -> String { dir.appendingPathComponent(name).path }
        @Sendable func path(_ file: File) -> String { path(file.rawValue) }
        func write(_ path: String, _ data: Data) throws { try data.write(to: URL(fileURLWithPath: path)) }
        func read(_ file: File) throws -> Data { try Data(contentsOf: dir.appendingPathComponent(file.rawValue)) }
        @Sendable func lame(_ arguments: String...) async throws { try await ChildProcess.check("lame", ["--quiet"] + arguments) }
        // Each Ogg file a serial number of its own, so files joined into one chain stay separate links.
        @Sendable func opusenc(serial: Int, _ arguments: String...) async throws {
            try await ChildProcess.check("opusenc", ["--quiet", "--serial", "\(serial)"] + arguments)
        }
        @Sendable func flac(_ arguments: String...) async throws { try await ChildProcess.check("flac", ["--silent", "-f"] + arguments) }
        @Sendable func oggenc(serial: Int, _ arguments: String...) async throws {
            try await ChildProcess.check("oggenc", ["-Q", "--serial", "\(serial)"] + arguments)
        }
        @Sendable func rawFLAC(_ file: File, bits: Int, rate: Int) async throws {
            let raw = path("\(bits)-\(rate).raw")
            try Data(noise(count: rate / 4 * 2 * bits / 8, seed: UInt64(bits))).write(to: URL(fileURLWithPath: raw))
            try await flac("--force-raw-format", "--endian=little", "--sign=signed", "--channels=2", "--bps=\(bits)",
                           "--sample-rate=\(rate)", "-o", path(file), raw)
        }

        // Sources: noise with a tone, so every stretch of audio is distinct and never all zero.
        try await together([
            { try await sox("-n", "-r", "44100", "-c", "2", "-b", "16", path("a.wav"),
                            "synth", "6", "pinknoise", "synth", "6", "sine", "amod", "440", "vol", "0.5") },
            { try await sox("-n", "-r", "44100", "-c", "2", "-b", "16", path("b.wav"),
                            "synth", "5", "brownnoise", "synth", "5", "sine", "amod", "660", "vol", "0.5") },
            { try await sox("-n", "-r", "22050", "-c", "1", "-b", "16", path("m.wav"), "synth", "4", "pinknoise", "vol", "0.5") },
            { try await sox("-n", "-r", "44100", "-c", "2", "-b", "16", path("l.wav"),
                            "synth", "60", "pinknoise", "synth", "60", "sine", "amod", "330", "vol", "0.5") },
            { try await sox("-n", "-r", "96000", "-c", "2", "-b", "24", path("h.wav"), "synth", "3",
                            "pinknoise", "synth", "3", "sine", "amod", "550", "vol", "0.5") },
            { try await sox("-n", "-r", "48000", "-c", "6", "-b", "24", path("s.wav"), "synth", "2", "pinknoise", "vol", "0.5") },
            { try await sox("-n", "-r", "48000", "-c", "6", "-b", "16", path("tones.wav"), "synth", "1", "sine", "200", "sine", "400",
                            "sine", "600", "sine", "800", "sine", "1000", "sine", "1200", "vol", "0.5") },
        ])
        try write(path(File.coverArt), Data(base64Encoded: Self.onePixelPNG)!)
        // A 2 MB "PNG" (a PNG signature, then noise): metaflac takes the given size as it is.
        try write(path("big.png"), Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + noise(count: 2_000_000, seed: 5)))

        try await together([
            { try await lame("-V", "2", "--id3v2-only", "--tt", "Vbr Title", "--ta", "Some Artist",
                             "--tl", "Some Album", "--tn", "3/12", path("a.wav"), path(File.vbrMP3)) },
            { try await lame("-b", "128", path("a.wav"), path(File.cbrMP3)) },
            { try await lame("-V", "4", path("b.wav"), path(File.secondMP3)) },
            { try await lame("-m", "m", "-b", "64", path("m.wav"), path(File.monoMP3)) },
            { try await opusenc(serial: 11, "--title", "Opus Title", "--artist", "Opus Artist", "--album", "Opus Album",
                                "--comment", "TRACKNUMBER=7", path("a.wav"), path(File.opus)) },
            { try await opusenc(serial: 12, path("b.wav"), path(File.secondOpus)) },
            { try await lame("-V", "2", path("l.wav"), path(File.longMP3)) },
            { try await opusenc(serial: 13, path("l.wav"), path(File.longOpus)) },
            { try await lame("-b", "128", path("l.wav"), path(File.longCBRMP3)) },
            { try await lame("-b", "160", "-t", path("l.wav"), path(File.plainCBRMP3)) },
            { try await opusenc(serial: 14, path("m.wav"), path(File.monoOpus)) },
            { try await lame("-V", "4", "--ti", path(File.coverArt), "--tt", "Art Title", path("m.wav"), path(File.artMP3)) },
            { try await opusenc(serial: 15, "--picture", path(File.coverArt), "--title", "Art Title", path("m.wav"), path(File.artOpus)) },
            { try await flac("-T", "TITLE=FLAC Title", "-T", "ARTIST=FLAC Artist", "-T", "ALBUM=FLAC Album", "-T", "TRACKNUMBER=4",
                             "-o", path(File.flac), path("a.wav")) },
            { try await flac("-o", path(File.secondFLAC), path("b.wav")) },
            { try await flac("--ogg", "--serial-number=31", "-o", path(File.oggFLAC), path("a.wav")) },
            { try await flac("-o", path(File.flac24), path("h.wav")) },
            { try await flac("-o", path(File.surroundFLAC), path("s.wav")) },
            { try await flac("-o", path(File.longFLAC), path("l.wav")) },
            { try await ChildProcess.check("ffmpeg", ["-nostdin", "-loglevel", "error", "-i", path("l.wav"), "-c:a", "aac", "-b:a", "160k",
                                                      "-aac_pns", "0", "-fflags", "+bitexact", path(File.longM4A)]) },
            {
                try await flac("-T", "TITLE=Big Picture", "-o", path(File.bigPictureFLAC), path("m.wav"))
                try await ChildProcess.check("metaflac", ["--import-picture-from=3|image/png|Cover|1x1x24|\(path("big.png"))",
                                                          "--add-padding=1048576", path(File.bigPictureFLAC)])
            },
            { try await oggenc(serial: 21, "-q", "3", "-t", "Vorbis Title", "-a", "Vorbis Artist", "-l", "Vorbis Album", "-N", "5",
                               "-o", path(File.vorbis), path("a.wav")) },
            { try await oggenc(serial: 22, "-q", "3", "-o", path(File.secondVorbis), path("b.wav")) },
            { try await oggenc(serial: 23, "-q", "3", "-o", path(File.monoVorbis), path("m.wav")) },
            { try await oggenc(serial: 24, "-o", path(File.surroundVorbis), path("tones.wav")) },
            { try await rawFLAC(.eightBitFLAC, bits: 8, rate: 44100) },
            { try await rawFLAC(.thirtyTwoBitFLAC, bits: 32, rate: 44100) },
            { try await rawFLAC(.highRateFLAC, bits: 16, rate: 384_000) },
        ])

        try FileManager.default.copyItem(atPath: path(File.opus), toPath: path(File.opusNamedMP3))
        try write(path(File.empty), Data())
        try write(path(File.random), Data(Self.noise(count: 200_000, seed: 7)))
        try write(path(File.text), Data(String(repeating: "These are not the droids.\n", count: 400).utf8))
        try await sox(path("a.wav"), "-e", "ms-adpcm", path(File.adpcmWAV))
        let vbr = try read(.vbrMP3)
        try write(path(File.truncatedMP3), vbr.prefix(vbr.count / 2))
        let opus = try read(.opus)
        try write(path(File.truncatedOpus), opus.prefix(opus.count / 2))
        // A good start, then 30 KB of noise where frames should be, then the rest of the file.
        var corrupt = vbr
        corrupt.replaceSubrange(20_000..<50_000, with: Self.noise(count: 30_000, seed: 11))
        try write(path(File.corruptMP3), corrupt)

        // ID3v2.3 tag of 100 bytes (no frames, zero padding) before a FLAC stream.
        let song = try read(.flac)
        let id3 = Data(Array("ID3".utf8) + [3, 0, 0, 0, 0, 0, 100] + [UInt8](repeating: 0, count: 100))
        try write(path(File.id3FLAC), id3 + song)
        let vorbis = try read(.vorbis)
        let secondVorbis = try read(.secondVorbis)
        try write(path(File.chainedVorbis), vorbis + secondVorbis)
        try write(path(File.mixedChainVorbis), vorbis + (try read(.monoVorbis)))
        try write(path(File.truncatedFLAC), song.prefix(song.count / 2))
        try write(path(File.corruptFLAC), try await damagingMiddleFrameCRC(of: path(File.flac), in: dir))
        // STREAMINFO's total samples: the low 36 bits of bytes 8+13...8+17 (after "fLaC" and the block header).
        var lying = song
        let declared = (UInt64(lying[8 + 13] & 0x0F) << 32) | UInt64(lying[8 + 14]) << 24 | UInt64(lying[8 + 15]) << 16
            | UInt64(lying[8 + 16]) << 8 | UInt64(lying[8 + 17])
        let doubled = declared * 2
        lying[8 + 13] = (lying[8 + 13] & 0xF0) | UInt8((doubled >> 32) & 0x0F)
        for index in 0..<4 { lying[8 + 14 + index] = UInt8(truncatingIfNeeded: doubled >> (24 - 8 * index)) }
        try write(path(File.lyingFLAC), lying)
        try write(path(File.truncatedVorbis), vorbis.prefix(vorbis.count / 2))
        // The second link's pages from 4 KB in are noise: the first link is whole.
        var broken = vorbis + secondVorbis
        broken.replaceSubrange((vorbis.count + 4000)..<(vorbis.count + 24000), with: noise(count: 20000, seed: 17))
        try write(path(File.brokenChainVorbis), broken)
        return dir
    }

    /// Runs `jobs` side by side; the first error ends them all.
    private static func together(_ jobs: [@Sendable () async throws -> Void]) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for job in jobs { group.addTask(operation: job) }
            try await group.waitForAll()
        }
    }

    private static func sox(_ arguments: String...) async throws {
        try await ChildProcess.check("sox", RepeatableTool.arguments(for: "sox", arguments))
    }

    /// A copy of a FLAC file with one bit of its middle frame's CRC-16 (the frame's last two bytes)
    /// flipped: the frame parses whole and only the CRC check fails, so libFLAC's one complaint is
    /// FRAME_CRC_MISMATCH — a bit flipped elsewhere may break a header or the residual coding, and
    /// the complaint then depends on the bytes ("lost sync", "unparseable stream"). Where the
    /// frames are is `flac --analyze`'s to say.
    private static func damagingMiddleFrameCRC(of flacFile: String, in dir: URL) async throws -> Data {
        let analysis = dir.appendingPathComponent("crc.ana").path
        try await ChildProcess.check("flac", ["--silent", "-f", "--analyze", "-o", analysis, flacFile])
        // "frame=N<TAB>offset=BYTE<TAB>bits=SIZE<TAB>…", one line per frame.
        let frames = try String(contentsOfFile: analysis, encoding: .utf8).split(separator: "\n").compactMap { line -> (Int, Int)? in
            let fields = line.split(separator: "\t")
            guard fields.first?.hasPrefix("frame=") == true, fields.count > 2,
                  let offset = Int(fields[1].dropFirst("offset=".count)), let bits = Int(fields[2].dropFirst("bits=".count)) else { return nil }
            return (offset, bits / 8)
        }
        guard frames.count > 2 else { throw TestSupportError("flac --analyze found \(frames.count) frames in \(flacFile)") }
        let (offset, size) = frames[frames.count / 2]
        var damaged = try Data(contentsOf: URL(fileURLWithPath: flacFile))
        damaged[offset + size - 1] ^= 0x01
        return damaged
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

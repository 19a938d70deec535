import Foundation

/// How each set is made: ffmpeg's HLS muxer with settings per kind, then what ffmpeg cannot do
/// (segments encrypted with an IV of their sequence number, packed audio) by other tools.
extension HLSFixtures {
    /// The AES-128 keys: fixed bytes, so a set is the same on every run.
    static let sequenceIVKey = Data((0..<16).map { UInt8(0x10 + $0) })
    static let explicitIVKey = Data((0..<16).map { UInt8(0xA0 + $0) })
    static let explicitIV = "000102030405060708090a0b0c0d0e0f"

    /// The master set's variants: name and AAC bit rate.
    static let variantRates = [("low", 48000), ("mid", 96000), ("high", 160000)]

    static func make(_ kind: Kind) async throws -> Made {
        let started = ContinuousClock.now
        let work = try ScratchSpace.directory()
        let folder = work.appendingPathComponent("set")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var made = Made(folder: folder)
        // Without noise substitution (PNS): its noise comes from a generator that a decoder
        // started afresh (a seek) does not put back where a decode from the start had it, so a
        // seek could not be compared sample for sample.
        let aac = ["-c:a", "aac", "-aac_pns", "0", "-b:a", "128k"], tsSegments = ["-hls_segment_filename", folder.appendingPathComponent("seg%d.ts").path]
        switch kind {
        case .tsAAC:
            try await hls(aac + tsSegments, into: folder)
        case .tsMP3:
            try await hls(["-c:a", "libmp3lame", "-b:a", "128k"] + tsSegments, into: folder)
        case .fmp4AAC:
            try await hls(aac + ["-hls_segment_type", "fmp4", "-hls_fmp4_init_filename", "init.mp4",
                                 "-hls_segment_filename", folder.appendingPathComponent("seg%d.m4s").path], into: folder)
        case .encrypted:
            try await hls(aac + ["-start_number", "7"] + tsSegments, into: folder)
            try await encryptBySequence(folder, key: sequenceIVKey)
            made.key = sequenceIVKey
        case .encryptedWithIV:
            let keyInfo = work.appendingPathComponent("key-info")
            try explicitIVKey.write(to: folder.appendingPathComponent("aes.key"))
            try "aes.key\n\(folder.appendingPathComponent("aes.key").path)\n\(explicitIV)\n"
                .write(to: keyInfo, atomically: true, encoding: .utf8)
            try await hls(aac + ["-hls_key_info_file", keyInfo.path] + tsSegments, into: folder)
            (made.key, made.iv) = (explicitIVKey, explicitIV)
        case .master:
            made.playlist = "master.m3u8"
            made.variants = try await master(into: folder)
        case .packedAudio:
            try await packed(into: folder, adts: work.appendingPathComponent("source.aac"))
            (made.titles, made.startPTS) = (packedTitles, packedStartPTS)
        }
        let media = folder.appendingPathComponent(kind == .master ? "\(variantRates[0].0)/index.m3u8" : "index.m3u8")
        guard let playlist = HLSPlaylistSnapshot(contentsOf: media) else {
            throw TestSupportError("the \(kind) set has no media playlist at \(media.path)")
        }
        let prefix = kind == .master ? "\(variantRates[0].0)/" : ""
        (made.segments, made.durations, made.mediaSequence) = (playlist.segments.map { prefix + $0 }, playlist.durations, playlist.mediaSequence)
        if let first = made.variants.first {
            made.reference = first.reference
        } else {
            made.reference = try await reference(media)
        }
        made.madeIn = ContinuousClock.now - started
        return made
    }

    /// ffmpeg's HLS muxer on the VOD source, `arguments` (codec, segment naming, …) before the
    /// media playlist `index.m3u8` in `folder`.
    private static func hls(_ arguments: [String], into folder: URL) async throws {
        try await ChildProcess.check("ffmpeg", ffmpegStart + ["-map", "0:a"] + arguments + hlsVOD
                                     + [folder.appendingPathComponent("index.m3u8").path])
    }

    private static let ffmpegStart = ["-nostdin", "-loglevel", "error", "-y"] + HLSToneSource.vod.ffmpegInput
        + ["-fflags", "+bitexact", "-flags:a", "+bitexact"]
    private static let hlsVOD = ["-f", "hls", "-hls_time", "2", "-hls_playlist_type", "vod"]

    /// Encrypts each segment of `folder`'s playlist in place (AES-128-CBC, PKCS#7 padding) with
    /// `key` and the IV its media sequence number gives, writes the key to `aes.key`, and adds
    /// `#EXT-X-KEY` without an IV to the playlist.
    private static func encryptBySequence(_ folder: URL, key: Data) async throws {
        let list = folder.appendingPathComponent("index.m3u8")
        guard let playlist = HLSPlaylistSnapshot(contentsOf: list) else { throw TestSupportError("no playlist in \(folder.path)") }
        let hexKey = key.map { String(format: "%02x", $0) }.joined()
        for (index, name) in playlist.segments.enumerated() {
            let segment = folder.appendingPathComponent(name), encrypted = folder.appendingPathComponent(name + ".enc")
            let iv = String(format: "%032x", playlist.mediaSequence + index)
            try await ChildProcess.check("openssl", ["enc", "-aes-128-cbc", "-K", hexKey, "-iv", iv, "-in", segment.path,
                                                     "-out", encrypted.path])
            try FileManager.default.removeItem(at: segment)
            try FileManager.default.moveItem(at: encrypted, to: segment)
        }
        try key.write(to: folder.appendingPathComponent("aes.key"))
        let lines = playlist.lines.flatMap { line in
            line.hasPrefix("#EXT-X-PLAYLIST-TYPE:") ? [line, #"#EXT-X-KEY:METHOD=AES-128,URI="aes.key""#] : [line]
        }
        try (lines.joined(separator: "\n") + "\n").write(to: list, atomically: true, encoding: .utf8)
    }

    /// The three variants and ffmpeg's master playlist, whose BANDWIDTH and CODECS are read back.
    private static func master(into folder: URL) async throws -> [MadeVariant] {
        let maps = variantRates.flatMap { _ in ["-map", "0:a"] }
        let rates = variantRates.enumerated().flatMap { ["-b:a:\($0.offset)", "\($0.element.1)"] }
        let streamMap = variantRates.enumerated().map { "a:\($0.offset),name:\($0.element.0)" }.joined(separator: " ")
        try await ChildProcess.check("ffmpeg", ffmpegStart + maps + ["-c:a", "aac"] + rates + hlsVOD
                                     + ["-master_pl_name", "master.m3u8", "-var_stream_map", streamMap,
                                        "-hls_segment_filename", folder.appendingPathComponent("%v/seg%d.ts").path,
                                        folder.appendingPathComponent("%v/index.m3u8").path])
        let text = try String(contentsOf: folder.appendingPathComponent("master.m3u8"), encoding: .utf8)
        let lines = text.split(whereSeparator: \.isNewline).map(String.init)
        var variants: [MadeVariant] = []
        for (name, rate) in variantRates {
            guard let uri = lines.firstIndex(of: "\(name)/index.m3u8"), uri > 0, lines[uri - 1].hasPrefix("#EXT-X-STREAM-INF:"),
                  let bandwidth = attribute("BANDWIDTH", in: lines[uri - 1]).flatMap({ Int($0) }),
                  let codecs = attribute("CODECS", in: lines[uri - 1]) else {
                throw TestSupportError("ffmpeg's master playlist has no BANDWIDTH and CODECS for \(name): \(text)")
            }
            let reference = try await reference(folder.appendingPathComponent("\(name)/index.m3u8"))
            variants.append(MadeVariant(name: name, bitRate: rate, bandwidth: bandwidth, codecs: codecs, reference: reference))
        }
        return variants
    }

    /// An attribute's value in a tag's attribute list, its quotes taken off (enough for ffmpeg's
    /// lines: no quoted commas before the one looked for).
    private static func attribute(_ name: String, in line: String) -> String? {
        guard let colon = line.firstIndex(of: ":") else { return nil }
        for pair in line[line.index(after: colon)...].split(separator: ",") where pair.hasPrefix(name + "=") {
            return pair.dropFirst(name.count + 1).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        }
        return nil
    }

    /// The packed-audio set: the source as ADTS (`adts`, outside the set), cut by hls_packed.py.
    private static func packed(into folder: URL, adts: URL) async throws {
        try await ChildProcess.check("ffmpeg", ffmpegStart + ["-c:a", "aac", "-b:a", "128k", "-f", "adts", adts.path])
        try await ChildProcess.check("python3", [packer.path, "--adts", adts.path, "--out", folder.path,
                                                 "--start-pts", "\(packedStartPTS)"] + titleArguments(packedTitles))
    }

    /// hls_packed.py's `--title N:ARTIST:TITLE` arguments for `titles`.
    static func titleArguments(_ titles: [Title]) -> [String] {
        titles.flatMap { ["--title", "\($0.segment):\($0.artist):\($0.title)"] }
    }

    /// ffmpeg's HLS demuxer's decoding of a playlist file, 16-bit. Every extension allowed: it
    /// refuses a local key file named other than as media otherwise.
    static func reference(_ playlist: URL) async throws -> PCMAudio {
        let output = try ScratchSpace.directory().appendingPathComponent("reference.wav")
        try await ChildProcess.check("ffmpeg", ["-nostdin", "-loglevel", "error", "-allowed_extensions", "ALL", "-i", playlist.path,
                                                "-map", "0:a:0", "-c:a", "pcm_s16le", output.path])
        return try PCMAudio(wavFile: output)
    }
}

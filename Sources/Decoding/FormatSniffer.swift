import Model
import Parsers

/// Recognises a track's format from its first bytes, never from its name.
package enum FormatSniffer {
    package enum Format: Equatable {
        /// MPEG audio; `exactLength` when its first frame carries a Xing/Info/VBRI header, whose
        /// frame count makes the decoded length exact (and so a short file detectably truncated).
        case mp3(exactLength: Bool)
        case opus
        /// FLAC, native (`fLaC`, maybe after an ID3v2 tag) or in Ogg (`\x7fFLAC`).
        case flac(ogg: Bool)
        case vorbis
        /// Uncompressed PCM in WAV (RIFF, RF64) or AIFF (AIFF-C).
        case pcmFile(AudioCodec)
        /// MP4 (M4A, M4B): AAC or ALAC, which its sample entry tells.
        case mp4
        /// AAC in ADTS frames: `.aac` files, AAC stations, HLS segments' audio.
        case adts

        var codec: AudioCodec {
            switch self {
            case .mp3: .mp3
            case .opus: .opus
            case .flac: .flac
            case .vorbis: .vorbis
            case .pcmFile(let codec): codec
            case .mp4, .adts: .aac
            }
        }
    }

    /// How far into the file (after an ID3v2 tag) to look for MPEG frames.
    static let searchWindow = 64 * 1024
    /// Consecutive valid frame headers that make a stream MPEG audio rather than noise.
    static let framesToConfirm = 3

    package static func sniff(_ source: any ByteSource) throws -> Format {
        if source.length == nil { return try sniffLive(source) }
        let head = try source.readBytes(at: 0, count: searchWindow)
        guard !head.isEmpty else { throw DecoderError.empty }
        if let container = containerFormat(head) { return try container() }

        // Audio starts after an ID3v2 tag, where the tag reader says it ends.
        let start = Int64(ID3v2Parser.tagSize(head[...]) ?? 0)
        let window = start == 0 ? head : try source.readBytes(at: start, count: searchWindow)
        // Some taggers put an ID3v2 tag before a FLAC stream; libFLAC skips it.
        if start > 0, window.starts(with: Array("fLaC".utf8)) { return .flac(ogg: false) }
        let fileLength = source.length.map { $0 - start }
        if let exact = mpegStream(in: window, lengthFromHere: fileLength) {
            return .mp3(exactLength: exact)
        }
        if adtsStream(in: window, lengthFromHere: fileLength) { return .adts }
        throw DecoderError.notAudio
    }

    /// A stream without a length (a station) is looked at as its bytes come, not once a whole
    /// window has: at 128 kbit/s the window is four seconds of waiting. A container is known from
    /// its first page; MPEG audio once `framesToConfirm` frames in a row are here.
    private static func sniffLive(_ source: any ByteSource) throws -> Format {
        var head: [UInt8] = []
        while head.count < searchWindow {
            var chunk = [UInt8](repeating: 0, count: searchWindow - head.count)
            let count = try chunk.withUnsafeMutableBytes { try source.read(into: $0, at: Int64(head.count)) }
            if count == 0 { break }
            head += chunk[..<count]
            if let format = try liveFormat(head) { return format }
        }
        guard !head.isEmpty else { throw DecoderError.empty }
        throw DecoderError.notAudio
    }

    /// What the first bytes of a stream are, once they tell.
    private static func liveFormat(_ head: [UInt8]) throws -> Format? {
        guard head.count >= 36 else { return nil }
        if let container = containerFormat(head) { return try container() }
        let start = ID3v2Parser.tagSize(head[...]) ?? 0
        guard start < head.count else { return nil }
        let audio = Array(head[start...])
        if mpegStream(in: audio, lengthFromHere: nil) != nil { return .mp3(exactLength: false) }
        return adtsStream(in: audio, lengthFromHere: nil) ? .adts : nil
    }

    /// Formats recognised by a container signature: Ogg Opus, Vorbis or FLAC, native FLAC, WAV
    /// and AIFF, or one we name but do not play.
    private static func containerFormat(_ head: [UInt8]) -> (() throws -> Format)? {
        func has(_ text: String, at offset: Int) -> Bool {
            let bytes = Array(text.utf8)
            return head.count >= offset + bytes.count && Array(head[offset..<offset + bytes.count]) == bytes
        }
        if has("OggS", at: 0) {
            if has("OpusHead", at: 28) { return { .opus } }
            if has("\u{01}vorbis", at: 28) { return { .vorbis } }
            if has("\u{7F}FLAC", at: 28) { return { .flac(ogg: true) } }
            return { throw DecoderError.unsupportedFormat("Ogg stream that is not Opus, Vorbis or FLAC") }
        }
        if has("fLaC", at: 0) { return { .flac(ogg: false) } }
        if (has("RIFF", at: 0) || has("RF64", at: 0) || has("BW64", at: 0)) && has("WAVE", at: 8) { return { .pcmFile(.wav) } }
        if has("FORM", at: 0) && (has("AIFF", at: 8) || has("AIFC", at: 8)) { return { .pcmFile(.aiff) } }
        if has("ftyp", at: 4) { return { .mp4 } }
        return nil
    }

    /// Looks for a run of consecutive MPEG frames (a file too short for them counts if its frames
    /// end exactly where it does); returns whether the first has a length header, or nil if there
    /// is no such run.
    private static func mpegStream(in bytes: [UInt8], lengthFromHere: Int64?) -> Bool? {
        MPEGFrameRun.first(in: bytes[...], frames: framesToConfirm, windowEnd: .countsIfFileEnds(fileLength: lengthFromHere))
            .map { MPEGLengthHeader(frame: bytes[$0.offset...], header: $0.header) != nil }
    }

    /// Whether a run of ADTS frames is in `bytes`, as `mpegStream` looks for MPEG audio's.
    private static func adtsStream(in bytes: [UInt8], lengthFromHere: Int64?) -> Bool {
        ADTSFrameRun.first(in: bytes[...], frames: framesToConfirm, windowEnd: .countsIfFileEnds(fileLength: lengthFromHere)) != nil
    }
}

import Model
import Parsers

/// The audio a decoder reads, out of an HLS segment's container, with the song titles the
/// segment names (RFC 8216, 3): an MPEG-TS segment's audio elementary stream (AAC in ADTS, or
/// MPEG audio) and its timed ID3; a packed-audio segment's frames after its ID3 tag (`TIT2`,
/// `TPE1`); a fragmented MP4 segment as it is (the MP4 decoder reads its `moof`s).
struct SegmentUnpacker {
    enum Container: Equatable {
        case transportStream
        case packedAudio
        case fragmentedMP4
    }

    /// One segment's audio, and the titles it carries at offsets of that audio.
    struct Unpacked {
        var container: Container
        var audio: [UInt8]
        var titles: [(offset: Int, tags: TrackTags)] = []
        /// Transport-stream packets lost or damaged (for one warning).
        var damage = 0
    }

    /// The container of a segment, from its first bytes.
    static func container(of bytes: [UInt8]) -> Container {
        if bytes.first == 0x47, bytes.count < 189 || bytes[188] == 0x47 { return .transportStream }
        if bytes.count >= 8, let type = String(bytes: bytes[4..<8], encoding: .ascii),
           ["ftyp", "styp", "moof", "sidx", "emsg", "mdat", "prft"].contains(type) {
            return .fragmentedMP4
        }
        return .packedAudio
    }

    static func unpack(_ bytes: [UInt8]) -> Unpacked {
        switch container(of: bytes) {
        case .transportStream: return transportStream(bytes)
        case .fragmentedMP4: return Unpacked(container: .fragmentedMP4, audio: bytes)
        case .packedAudio:
            guard let size = ID3v2Parser.tagSize(bytes[...]), size <= bytes.count else { return Unpacked(container: .packedAudio, audio: bytes) }
            var unpacked = Unpacked(container: .packedAudio, audio: Array(bytes[size...]))
            if let tag = HLSID3Tag.read(bytes[..<size]), tag.tags != TrackTags() { unpacked.titles = [(0, tag.tags)] }
            return unpacked
        }
    }

    /// The first audio stream of a transport stream, its timed ID3 titles placed at the audio
    /// that came before them.
    private static func transportStream(_ bytes: [UInt8]) -> Unpacked {
        var demuxer = TSDemuxer()
        let payloads = demuxer.feed(bytes[...]) + demuxer.finish()
        var unpacked = Unpacked(container: .transportStream, audio: [])
        var audioKind: TSStreamKind?
        for payload in payloads {
            switch payload.kind {
            case .adtsAAC, .mpegAudio:
                guard audioKind == nil || audioKind == payload.kind else { continue }
                audioKind = payload.kind
                unpacked.audio += payload.bytes
            case .id3Metadata:
                if let tag = HLSID3Tag.read(payload.bytes[...]), tag.tags != TrackTags() { unpacked.titles.append((unpacked.audio.count, tag.tags)) }
            case .other:
                continue
            }
        }
        unpacked.damage = demuxer.damage
        return unpacked
    }
}

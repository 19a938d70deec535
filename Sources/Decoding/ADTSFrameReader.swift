import Model
import Parsers

/// The frames of an AAC stream in ADTS, read in order from a `ByteSource`: a file (`.aac`), a
/// station, or the audio an HLS stream's segments carry. Each frame says its length, so the
/// reader walks header to header; a stretch that is not a frame of the stream (damage, a cut)
/// is passed over to the next header that continues it.
struct ADTSFrameReader {
    /// The stream's first frame: later ones must continue it (same object type, rate, layout).
    let first: ADTSHeader
    /// Where the first frame starts.
    let start: Int64
    /// Where the next frame starts.
    private(set) var offset: Int64
    private var window: SequentialBytes

    /// How far past a damaged stretch (or into a stream) to look for a frame before giving up.
    static let searchLimit = 64 * 1024
    /// Frames in a row that make a stream ADTS (rather than noise with a sync pattern in it).
    static let framesToConfirm = 3

    /// Finds the stream's first frame from `offset` on — past an ID3v2 tag (packed audio, some
    /// files) and junk — reading only as far as it must: a station's bytes come as they are sent.
    init(source: any ByteSource, from offset: Int64 = 0) throws {
        var window = SequentialBytes(source: source, from: offset)
        while true {
            let head = window.slice(from: offset)
            let tag = Int64(ID3v2Parser.tagSize(head) ?? 0)
            if tag > 0, window.end < offset + tag + Int64(ADTSHeader.headerSize) {
                guard try window.readMore() else { throw DecoderError.notAudio }
                continue
            }
            let remaining = source.length.map { $0 - offset - tag }
            if let run = ADTSFrameRun.first(in: head.dropFirst(Int(tag)), frames: Self.framesToConfirm,
                                            windowEnd: .countsIfFileEnds(fileLength: window.atEnd ? remaining : nil)) {
                (first, start) = (run.header, offset + tag + Int64(run.offset))
                (self.offset, self.window) = (start, window)
                return
            }
            guard head.count < Self.searchLimit + Int(tag), try window.readMore() else {
                throw head.isEmpty ? DecoderError.empty : DecoderError.notAudio
            }
        }
    }

    /// The next frame, header and all; nil at the end of the stream (a frame cut short by the
    /// end is no frame). Throws when no frame of the stream follows within `searchLimit`.
    mutating func next() throws -> [UInt8]? {
        guard let header = try nextHeader(), try window.have(offset, count: header.length) else { return nil }
        let frame = Array(window.slice(from: offset).prefix(header.length))
        offset += Int64(header.length)
        window.drop(before: offset)
        return frame
    }

    /// Passes over the next frame without copying it; its header, or nil at the end.
    mutating func skipFrame() throws -> ADTSHeader? {
        guard let header = try nextHeader() else { return nil }
        offset += Int64(header.length)
        window.drop(before: offset)
        return header
    }

    /// Moves back to the first frame (a seek starts there and walks forward), or to `frame`, a
    /// frame's offset the walk met before.
    mutating func rewind(to frame: Int64? = nil) {
        offset = frame ?? start
    }

    /// The header of the next frame of the stream, past what is not one; nil at the end.
    private mutating func nextHeader() throws -> ADTSHeader? {
        while try window.have(offset, count: ADTSHeader.headerSize) {
            if let header = ADTSHeader(window.slice(from: offset)), header.continues(with: first) { return header }
            try resync()
        }
        return nil
    }

    /// Moves to the next header that continues the stream (or to the end).
    private mutating func resync() throws {
        let from = offset
        offset += 1
        while offset - from <= Int64(Self.searchLimit) {
            guard try window.have(offset, count: ADTSHeader.headerSize) else { return }
            if let header = ADTSHeader(window.slice(from: offset)), header.continues(with: first) { return }
            offset += 1
        }
        throw DecoderError.invalidStream(.aac, "no ADTS frame of the stream in \(Self.searchLimit / 1024) KiB after byte \(from)")
    }
}

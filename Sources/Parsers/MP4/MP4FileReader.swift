/// Finds an MP4 file's `moov` box by walking its top-level boxes with ranged reads — a box
/// header each, never a byte of `mdat` — wherever the box is: first (iTunes, `+faststart`) or
/// after the audio (ffmpeg's default). Used alike by the decoder (blocking reads) and the tag
/// reader (async fetches): each feeds `step` what it asked for.
package struct MP4FileReader {
    package enum Step: Sendable, Equatable {
        /// The `moov` box's body.
        case done(moov: Range<Int64>)
        case need(Range<Int64>)
    }

    /// A `moov` bigger than this is damage (a 24-hour audiobook's tables are a few MB).
    package static let maxMovie: Int64 = 64 << 20
    static let maxBoxes = 10_000
    /// Bytes asked for at a time: a box header, and the head of a file whose `moov` is first.
    package static let window: Int64 = 64 * 1024

    private let fileLength: Int64
    private var next: Int64 = 0
    private var boxes = 0

    private let window: Int64

    /// `window`: bytes asked for at a time (the tag reader asks for less: a scan's budget).
    package init(fileLength: Int64?, window: Int64 = MP4FileReader.window) {
        self.fileLength = fileLength ?? .max
        self.window = window
    }

    package mutating func step(_ bytes: ArraySlice<UInt8>, at offset: Int64) throws -> Step {
        while next <= fileLength - 8 {
            guard boxes < Self.maxBoxes else { throw ParseError.malformed("more than \(Self.maxBoxes) top-level boxes") }
            let from = next - offset
            guard from >= 0, from < Int64(bytes.count),
                  let box = try MP4Box(bytes[(bytes.startIndex + Int(from))...], at: next, containerEnd: fileLength) else {
                guard offset != next else { throw ParseError.malformed("the file ends inside a box header at \(next)") }
                return .need(next..<(next + min(window, fileLength - next)))
            }
            boxes += 1
            if boxes == 1 && box.type != "ftyp" { throw ParseError.malformed("an MP4 file that does not start with 'ftyp'") }
            if box.type == "moov" {
                guard box.end - box.bodyStart <= Self.maxMovie else {
                    throw ParseError.malformed("a 'moov' box of \(box.end - box.bodyStart) bytes")
                }
                return .done(moov: box.bodyStart..<box.end)
            }
            next = box.end
        }
        throw ParseError.malformed("no 'moov' box (the file is cut short, or not finished by its writer)")
    }
}

/// Walks a WAV (RIFF, RF64) or AIFF (AIFF-C) file's chunks to its `PCMFileLayout`, asking for
/// the bytes it needs one range at a time: the chunk headers and the few small chunks it reads
/// (`fmt `, `ds64`, `COMM`, `SSND`'s first 8 bytes), never the audio. Used alike by a decoder
/// (blocking reads) and the tag reader (async fetches): each feeds `step` what it asked for.
package struct PCMFileLayoutReader {
    package enum Step: Sendable, Equatable {
        case done(PCMFileLayout)
        /// Feed these bytes (fewer only at the file's end) to the next `step`.
        case need(Range<Int64>)
    }

    /// Bytes asked for at a time: a chunk header and the small chunks after it.
    package static let window: Int64 = 4096
    /// More chunks than any real file has: a damaged file walks no further.
    static let maxChunks = 10_000

    private let fileLength: Int64?
    private let readingTags: Bool
    private var container: PCMFileLayout.Container?
    private var compressed = false
    /// Where the walk stops: the container's stated end, cut to the file's length.
    private var end: Int64 = .max
    private var next: Int64 = 0
    private var chunks = 0
    private var askedHeader = false
    private var rf64DataSize: Int64?
    private var wavFormat: WAVFormatChunk?
    private var aiffCommon: AIFFCommonChunk?
    /// The audio's start, and its size as stated (nil: WAV's 0xFFFFFFFF with no ds64).
    private var data: (start: Int64, stated: Int64?)?
    private var tags: [PCMFileLayout.TagPlace] = []

    /// `readingTags`: walk on past the audio to the chunks after it; else stop once the audio
    /// and its format are found.
    package init(fileLength: Int64?, readingTags: Bool) {
        self.fileLength = fileLength
        self.readingTags = readingTags
        if let fileLength { end = fileLength }
    }

    /// `bytes`: the file's bytes from `offset` on (what the last step asked for; any bytes from
    /// 0 for the first).
    package mutating func step(_ bytes: ArraySlice<UInt8>, at offset: Int64) throws -> Step {
        func slice(_ start: Int64, _ count: Int) -> ArraySlice<UInt8>? {
            guard start >= offset, start - offset + Int64(count) <= Int64(bytes.count) else { return nil }
            let from = bytes.startIndex + Int(start - offset)
            return bytes[from..<(from + count)]
        }
        func ask(_ start: Int64) -> Step { .need(start..<min(end, start + Self.window)) }
        if container == nil {
            guard let header = slice(0, 12) else {
                // What was asked for did not come: the file is shorter than a header.
                if offset == 0 && bytes.count < 12 && (askedHeader || fileLength != nil) {
                    throw ParseError.malformed("a file of \(bytes.count) bytes")
                }
                askedHeader = true
                return ask(0)
            }
            try readHeader(header)
            next = 12
        }
        while next + 8 <= end {
            guard chunks < Self.maxChunks else { throw ParseError.malformed("more than \(Self.maxChunks) chunks") }
            guard let header = slice(next, 8) else {
                guard offset != next else { throw ParseError.malformed("the file ends inside a chunk header") }
                return ask(next)
            }
            let id = String(decoding: header.prefix(4), as: UTF8.self)
            let size = Int64(littleEndian ? UInt32(header.suffix(4), bigEndian: false) : UInt32(header.suffix(4), bigEndian: true))
            let body = next + 8
            // The small chunks read here must be whole in the window (a real one is under 100 bytes).
            let needed = bodyBytesNeeded(id, size: size)
            guard needed <= Self.window - 8 else { throw ParseError.malformed("a \(id) chunk of \(size) bytes") }
            guard let content = slice(body, Int(needed)) else {
                guard body + needed <= end, offset != next else { throw ParseError.malformed("the file ends inside its \(id) chunk") }
                return ask(next)
            }
            chunks += 1
            guard let after = try read(id, size: size, body: body, content: content) else { break }
            next = after
        }
        return .done(try finish())
    }

    private var littleEndian: Bool { container == .wav }

    private mutating func readHeader(_ header: ArraySlice<UInt8>) throws {
        let kind = String(decoding: header.prefix(4), as: UTF8.self)
        let form = String(decoding: header.suffix(4), as: UTF8.self)
        let size = header.dropFirst(4).prefix(4)
        switch (kind, form) {
        case ("RIFF", "WAVE"):
            container = .wav
            end = min(end, 8 + Int64(UInt32(size, bigEndian: false)))
        case ("RF64", "WAVE"), ("BW64", "WAVE"):
            container = .wav  // sizes from the ds64 chunk
        case ("FORM", "AIFF"), ("FORM", "AIFC"):
            container = .aiff
            compressed = form == "AIFC"
            end = min(end, 8 + Int64(UInt32(size, bigEndian: true)))
        default:
            throw ParseError.malformed("neither a WAV (RIFF/RF64 WAVE) nor an AIFF (FORM AIFF/AIFC) file")
        }
    }

    /// How many bytes of a chunk's body `read` looks at.
    private func bodyBytesNeeded(_ id: String, size: Int64) -> Int64 {
        switch (container, id) {
        case (.wav, "fmt "): min(size, 40)
        case (.wav, "ds64"): 16
        case (.wav, "LIST"): min(size, 4)
        case (.aiff, "COMM"): min(size, compressed ? 22 : 18)
        case (.aiff, "SSND"): 8
        default: 0
        }
    }

    /// Takes one chunk in; returns where the next one starts, or nil when the walk ends here.
    private mutating func read(_ id: String, size: Int64, body: Int64, content: ArraySlice<UInt8>) throws -> Int64? {
        // The chunk's end as far as the file goes: a tag chunk cut off by the end is read as far as it is there.
        func inFile(_ start: Int64) -> Range<Int64> { min(start, end)..<max(min(start, end), min(end, body + size)) }
        switch (container, id) {
        case (.wav, "ds64"):
            var reader = ByteReader(content)
            _ = reader.skip(8)
            // A size no file has (and that would overflow what is added to it) is no size.
            rf64DataSize = reader.littleEndian(8).flatMap { $0 <= UInt64(1) << 50 ? Int64($0) : nil }
        case (.wav, "fmt "):
            wavFormat = try WAVFormatChunk(content)
        case (.aiff, "COMM"):
            aiffCommon = try AIFFCommonChunk(content, compressed: compressed)
        case (.wav, "data"):
            let stated: Int64? = size == 0xFFFF_FFFF ? rf64DataSize : size
            data = (body, stated)
            // Past the audio as stated (RF64's size from ds64, not the placeholder), padded to even.
            return stated.flatMap { audioFound(after: body + $0) ? body + $0 + ($0 & 1) : nil }
        case (.aiff, "SSND"):
            var reader = ByteReader(content)
            let skip = Int64(reader.u32be() ?? 0)
            data = (body + 8 + skip, max(0, size - 8 - skip))
            return audioFound(after: body + size) ? body + size + (size & 1) : nil
        case (.wav, "LIST") where content.elementsEqual("INFO".utf8):
            tags.append(.init(chunk: .riffInfo, range: inFile(body + 4)))
        case (_, "id3 "), (_, "ID3 "):
            tags.append(.init(chunk: .id3, range: inFile(body)))
        case (.aiff, "NAME"), (.aiff, "AUTH"), (.aiff, "(c) "), (.aiff, "ANNO"):
            tags.append(.init(chunk: .aiffText(id), range: inFile(body)))
        default:
            break
        }
        // Chunks are padded to an even size.
        return body + size <= end ? body + size + (size & 1) : nil
    }

    /// Whether to walk on after the audio, which ends at `audioEnd` (nil: unstated).
    private func audioFound(after audioEnd: Int64?) -> Bool {
        guard let audioEnd, audioEnd <= end else { return false }
        return readingTags || (wavFormat == nil && aiffCommon == nil)
    }

    private func finish() throws -> PCMFileLayout {
        guard let container else { throw ParseError.malformed("no WAV or AIFF header") }
        let (rate, channels, encoding): (Int, Int, PCMSampleEncoding)
        if let format = wavFormat {
            (rate, channels, encoding) = (format.sampleRate, format.channels, format.encoding)
        } else if let common = aiffCommon {
            (rate, channels, encoding) = (common.sampleRate, common.channels, common.encoding)
        } else {
            throw ParseError.malformed(container == .wav ? "no fmt chunk before the file's end" : "no COMM chunk before the file's end")
        }
        guard let data else {
            throw ParseError.malformed(container == .wav ? "no data chunk" : "no SSND chunk")
        }
        let frameBytes = Int64(channels * encoding.bytes)
        var stated = data.stated
        // AIFF states its length in frames too; the smaller of the two is the audio.
        if let common = aiffCommon, let bytes = stated { stated = min(bytes, common.frames * frameBytes) }
        let present = max(0, (fileLength ?? .max) - data.start)
        let length = min(stated ?? present, present)
        let statedSize: PCMFileLayout.StatedSize? = switch stated {
        case nil: .unstated
        case let bytes? where bytes > present: .beyondFile(bytes)
        default: nil
        }
        return PCMFileLayout(container: container, sampleRate: rate, channels: channels, encoding: encoding, dataStart: data.start,
                             dataLength: length / frameBytes * frameBytes, statedSize: statedSize, tags: tags)
    }
}

extension UInt32 {
    /// Four bytes in the given order.
    init(_ bytes: ArraySlice<UInt8>, bigEndian: Bool) {
        let ordered = bigEndian ? Array(bytes) : bytes.reversed()
        self = ordered.reduce(0) { $0 << 8 | UInt32($1) }
    }
}

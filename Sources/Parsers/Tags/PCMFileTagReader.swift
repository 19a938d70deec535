import Model

/// Tags and exact length of a WAV or AIFF file, through ranged reads: the chunk walk fetches
/// chunk headers only (one small read per chunk after the audio), then each tag chunk is read —
/// an ID3v2 chunk as `ID3v2RangedReader` reads a tag, skipping pictures by their sizes in a scan.
enum PCMFileTagReader {
    /// The most of a RIFF INFO list or an AIFF text chunk that is read.
    static let maxTextChunk = 64 * 1024

    static func read(head: [UInt8], length: Int64, pictures: Bool, isolation: isolated (any Actor)?,
                     _ fetch: (Range<Int64>) async throws -> [UInt8]) async throws -> ScannedTags {
        var walk = PCMFileLayoutReader(fileLength: length, readingTags: true)
        var bytes = head[...]
        var offset: Int64 = 0
        var layout: PCMFileLayout?
        while layout == nil {
            switch try walk.step(bytes, at: offset) {
            case .done(let found):
                layout = found
            case .need(let range):
                bytes = try await TagReader.checkedFetch(range, fetch)[...]
                offset = range.lowerBound
            }
        }
        guard let layout else { throw ParseError.malformed("no layout") }
        var tags = TrackTags()
        var fromID3 = TrackTags()
        for place in layout.tags {
            switch place.chunk {
            case .id3:
                fromID3 = fromID3.filled(from: try await id3(in: place.range, pictures: pictures, isolation: isolation, fetch))
            case .riffInfo:
                tags = tags.filled(from: RIFFInfoList.tags(try await text(place.range, fetch)[...]))
            case .aiffText(let id):
                let value = TextDecoding.nonEmpty(String(decoding: try await text(place.range, fetch).prefix { $0 != 0 }, as: UTF8.self))
                if id == "NAME" && tags.title == nil { tags.title = value }
                if id == "AUTH" && tags.artist == nil { tags.artist = value }
            }
        }
        let duration = Double(layout.totalFrames) / Double(layout.sampleRate)
        // An ID3 chunk is the fuller tag (album artist, disc, ReplayGain, pictures): it wins.
        return ScannedTags(codec: layout.container == .wav ? .wav : .aiff, tags: fromID3.filled(from: tags), duration: duration)
    }

    private static func text(_ range: Range<Int64>, isolation: isolated (any Actor)? = #isolation,
                             _ fetch: (Range<Int64>) async throws -> [UInt8]) async throws -> [UInt8] {
        try await TagReader.checkedFetch(range.lowerBound..<min(range.upperBound, range.lowerBound + Int64(maxTextChunk)), fetch)
    }

    /// The ID3v2 tag of a chunk at `range`, read in the tag's own offsets.
    private static func id3(in range: Range<Int64>, pictures: Bool, isolation: isolated (any Actor)?,
                            _ fetch: (Range<Int64>) async throws -> [UInt8]) async throws -> TrackTags {
        let size = Int64(range.count)
        func shifted(_ part: Range<Int64>) async throws -> [UInt8] {
            try await TagReader.checkedFetch((range.lowerBound + part.lowerBound)..<(range.lowerBound + part.upperBound), fetch)
        }
        let head = try await shifted(0..<min(size, Int64(PCMFileLayoutReader.window)))
        guard let header = ID3v2Parser.header(head[...]), header.isReadable else { return TrackTags() }
        guard header.framesMapToFile else {
            let whole = Int64(head.count) < size ? try await shifted(0..<min(size, Int64(TagReader.partialTag))) : head
            return ID3v2Parser.parse(whole[...])
        }
        return try await ID3v2RangedReader.read(head: head, header: header, length: size, pictures: pictures, chapters: false, frameWindow: 0,
                                                isolation: isolation, fetch: shifted).tags
    }
}

import Model

/// Reads an ID3v2 tag through ranged reads, frame header by frame header: a frame the tags do
/// not need (a 2 MB cover during a scan, lyrics, private data) is skipped by its size, and the
/// bytes after it are fetched where they start. Taggers put the cover first, so reading on
/// would fetch megabytes to reach a title. Only a v2.2/2.3 tag unsynchronised as a whole, whose
/// frame sizes are not file offsets, is not walked: `TagReader` reads it on.
enum ID3v2RangedReader {
    /// Bytes fetched where the walk lands after a skip: the next frame headers, or the audio
    /// right after a tag that ends there.
    static let chunk = 4 * 1024

    /// The tags, and the bytes from the tag's end (up to `frameWindow` or more) where the first
    /// MPEG frame is looked for.
    struct Result {
        var tags: TrackTags
        /// `CHAP` frames' chapters, when asked for.
        var chapters: [Chapter]
        var window: ArraySlice<UInt8>
        var windowStart: Int64
    }

    /// `head`: the file's first bytes, starting with `header`. `pictures`, `chapters`: whether
    /// picture and chapter frames are fetched (playing) or skipped (scanning).
    static func read(head: [UInt8], header: ID3v2Parser.TagHeader, length: Int64, pictures: Bool, chapters: Bool, frameWindow: Int,
                     isolation: isolated (any Actor)? = #isolation,
                     fetch: (Range<Int64>) async throws -> [UInt8]) async throws -> Result {
        let tagEnd = min(length, Int64(header.total))
        let framesEnd = min(tagEnd, Int64(ID3v2Parser.headerSize + header.bodySize))
        var bytes = Window(start: 0, bytes: head, limit: min(length, tagEnd + Int64(frameWindow)), length: length)
        var position = Int64(ID3v2Parser.headerSize)
        var frames = ID3v2Parser.FrameCollector(major: header.major, unsynchronised: header.unsynchronised)
        if header.hasExtendedHeader {
            guard try await bytes.ensure(position..<(position + 4), isolation: isolation, fetch),
                  let size = ID3v2Parser.extendedHeaderSize(bytes[position..<(position + 4)], major: header.major) else {
                return try await finish(frames, bytes, tagEnd: tagEnd, isolation: isolation, fetch)
            }
            position += Int64(size)
        }
        let headerLength = Int64(ID3v2Parser.FrameHeader.length(major: header.major))
        while position + headerLength <= framesEnd {
            guard try await bytes.ensure(position..<(position + headerLength), isolation: isolation, fetch),
                  var frame = ID3v2Parser.frameHeader(bytes[position..<(position + headerLength)], major: header.major) else { break }
            let bodyStart = position + headerLength
            if let other = frame.otherSize {
                frame.size = try await plausibleSize(of: frame, or: other, after: bodyStart, framesEnd: framesEnd, major: header.major,
                                                     pictures: pictures, chapters: chapters, bytes: &bytes, isolation: isolation, fetch)
            }
            let end = bodyStart + Int64(frame.size)
            guard end <= framesEnd else { break }
            if ID3v2Parser.isWanted(frame, pictures: pictures, chapters: chapters) {
                guard try await bytes.ensure(bodyStart..<end, isolation: isolation, fetch) else { break }
                frames.add(frame, bytes[bodyStart..<end])
            }
            position = end
        }
        return try await finish(frames, bytes, tagEnd: tagEnd, isolation: isolation, fetch)
    }

    private static func finish(_ frames: ID3v2Parser.FrameCollector, _ window: Window, tagEnd: Int64,
                               isolation: isolated (any Actor)?, _ fetch: (Range<Int64>) async throws -> [UInt8]) async throws -> Result {
        var bytes = window
        let audio = tagEnd..<max(tagEnd, bytes.limit)
        _ = try await bytes.ensure(audio, isolation: isolation, fetch)
        let start = max(tagEnd, bytes.start)
        return Result(tags: frames.tags, chapters: frames.chapters, window: start < bytes.end ? bytes[start..<bytes.end] : [], windowStart: tagEnd)
    }

    /// A v2.4 frame size that reads two ways (syncsafe, as the spec says, or plain, as old
    /// iTunes wrote it): the syncsafe one unless only the plain one lands on a plausible next
    /// frame header, padding, or the end of the frames. A reading whose frame is wanted is
    /// checked with its body fetched; one that would be skipped with a probe of four bytes, so a
    /// wrong reading inside a picture costs those alone.
    private static func plausibleSize(of frame: ID3v2Parser.FrameHeader, or plain: Int, after bodyStart: Int64, framesEnd: Int64,
                                      major: UInt8, pictures: Bool, chapters: Bool, bytes: inout Window, isolation: isolated (any Actor)?,
                                      _ fetch: (Range<Int64>) async throws -> [UInt8]) async throws -> Int {
        for candidate in [frame.size, plain] {
            let next = bodyStart + Int64(candidate)
            guard next <= framesEnd else { continue }
            let probe = next..<min(framesEnd, next + 4)
            var reading = frame
            reading.size = candidate
            let present = ID3v2Parser.isWanted(reading, pictures: pictures, chapters: chapters)
                ? try await bytes.ensure(bodyStart..<probe.upperBound, isolation: isolation, fetch)
                : try await bytes.ensure(probe, exactly: true, isolation: isolation, fetch)
            if present && ID3v2Parser.isPlausibleNext(bytes[probe], major: major) { return candidate }
        }
        return frame.size
    }

    /// The bytes fetched last: one contiguous stretch of the file, extended when the walk
    /// reads on and replaced when it skips ahead.
    struct Window {
        private(set) var start: Int64
        private(set) var bytes: [UInt8]
        /// How far a fetch reaches beyond what it needs: the tag's end plus the audio window.
        let limit: Int64
        let length: Int64

        init(start: Int64, bytes: [UInt8], limit: Int64, length: Int64) {
            self.start = start
            self.bytes = bytes
            self.limit = limit
            self.length = length
        }

        var end: Int64 { start + Int64(bytes.count) }

        subscript(range: Range<Int64>) -> ArraySlice<UInt8> {
            bytes[Int(range.lowerBound - start)..<Int(range.upperBound - start)]
        }

        /// Makes `range` present, fetching a chunk more than it needs (up to `limit`, all of it
        /// when little is left) unless `exactly`; false if the file ends first.
        mutating func ensure(_ range: Range<Int64>, exactly: Bool = false, isolation: isolated (any Actor)?,
                             _ fetch: (Range<Int64>) async throws -> [UInt8]) async throws -> Bool {
            guard range.upperBound <= length else { return false }
            if range.lowerBound >= start && range.upperBound <= end { return true }
            let chunk = Int64(ID3v2RangedReader.chunk)
            let fetchEnd = exactly ? range.upperBound
                : limit - range.upperBound <= 2 * chunk ? max(range.upperBound, limit) : range.upperBound + chunk
            if range.lowerBound >= start && range.lowerBound <= end {
                bytes += try await TagReader.checkedFetch(end..<fetchEnd, isolation: isolation, fetch)
            } else {
                bytes = try await TagReader.checkedFetch(range.lowerBound..<fetchEnd, isolation: isolation, fetch)
                start = range.lowerBound
            }
            return true
        }
    }
}

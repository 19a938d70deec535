import Model

/// Reads tags and exact duration through as few byte ranges as possible: a library scans
/// thousands of remote files and must fetch only a few KiB of each (the start, where the tags and
/// the first frame's length header are, and the end, for ID3v1 or Opus's last granule position).
package enum TagReader {
    /// The first fetch: tags without pictures, and the first frame after them, fit in it.
    package static let headSize = 16 * 1024
    /// Bytes fetched after an ID3v2 tag to reach the first MPEG frame and its Xing header.
    package static let frameWindow = 4 * 1024
    /// A tag whose frames cannot be walked (unsynchronised whole) is fetched whole up to this
    /// size (a 16 MiB picture and its frames); a bigger one only in part, so its pictures are skipped.
    static let maxTag = 16 * 1024 * 1024 + 256 * 1024
    package static let partialTag = 256 * 1024
    /// Opus and Vorbis header packets are followed up to this size (a 16 MiB picture in base64,
    /// and more).
    static let maxOpusHeaders = 24 * 1024 * 1024
    /// The most 48 kHz samples one byte of an Ogg Opus file can stand for: a 120 ms packet (the
    /// longest RFC 6716 allows) takes at least a byte.
    static let maxOpusSamplesPerByte: Int64 = 5760
    /// The Opus tail windows searched for the last page.
    static let tailSizes = [8 * 1024, 64 * 1024]

    /// What `fetch` throws for a file's tail that cannot be had cheaply (a server that ignores
    /// `Range` would send the whole file): the tags are read without it — no ID3v1, no Opus length.
    package struct TailUnavailable: Error {
        package init() {}
    }

    /// `length`: the file's size. `fetch(range)` returns exactly those bytes (may throw). It runs
    /// on the caller's actor (`isolation`), so it may use that actor's state. `pictures`: false
    /// for a library scan, which skips ID3v2 picture frames and big FLAC PICTURE blocks by their
    /// sizes (the cover is read when the track plays). `chapters`: false for a scan, which has no
    /// use for them (an M4B's are in `mdat`, fetched apart). `readingTail`: whether an MP3's
    /// ID3v1 tag, in its last 128 bytes, is read: a player starting a track reads it only if its
    /// bytes are here — from a server it is a request of its own, a round trip before the first
    /// sample, for tags the library's scan has read (and an ID3v2 tag mostly holds).
    package static func read(length: Int64, pictures: Bool = true, chapters: Bool = true,
                             readingTail: (Range<Int64>) -> Bool = { _ in true }, isolation: isolated (any Actor)? = #isolation,
                             fetch: (Range<Int64>) async throws -> [UInt8]) async throws -> ScannedTags {
        guard length > 0 else { throw ParseError.malformed("an empty file") }
        let head = try await checkedFetch(0..<min(length, Int64(headSize)), fetch)
        if head.starts(with: "OggS".utf8) {
            return try await readOgg(head: head, length: length, isolation: isolation, fetch)
        }
        if head.starts(with: FLACMetadataReader.magic) {
            return try await FLACMetadataReader.read(head: head, start: 0, length: length, pictures: pictures,
                                                     fetch: { try await checkedFetch($0, fetch) })
        }
        // FLAC after an ID3v2 tag that fits in the head; after a bigger one, readMP3 finds it.
        if let size = ID3v2Parser.tagSize(head[...]), size < head.count, head[size...].starts(with: FLACMetadataReader.magic) {
            return try await FLACMetadataReader.read(head: head, start: Int64(size), length: length, pictures: pictures,
                                                     fetch: { try await checkedFetch($0, fetch) })
        }
        if head.count >= 8, head[4..<8].elementsEqual("ftyp".utf8) {
            return try await MP4TagReader.read(head: head, length: length, pictures: pictures, chapters: chapters, isolation: isolation, fetch)
        }
        if head.count >= 12, ["RIFF", "RF64", "BW64", "FORM"].contains(where: { head.starts(with: $0.utf8) }) {
            return try await PCMFileTagReader.read(head: head, length: length, pictures: pictures, isolation: isolation, fetch)
        }
        if ADTSHeader(head[...]) != nil, let run = ADTSFrameRun.first(in: head[...], frames: 2, windowEnd: .counts), run.offset == 0 {
            return ScannedTags(codec: .aac, tags: TrackTags(), duration: ADTSDuration.estimate(head[...], audioBytes: length))
        }
        if ID3v2Parser.tagSize(head[...]) != nil || MPEGFrameHeader(head[...]) != nil {
            return try await readMP3(head: head, length: length, pictures: pictures, chapters: chapters, readingTail: readingTail,
                                     isolation: isolation, fetch)
        }
        throw ParseError.unsupported("neither an MP3 (ID3v2 tag or MPEG frame), an AAC (ADTS or MP4), a FLAC, an Ogg Opus or Vorbis, a WAV nor an AIFF file")
    }

    // MARK: MP3

    private static func readMP3(head: [UInt8], length: Int64, pictures: Bool, chapters wanted: Bool,
                                readingTail: (Range<Int64>) -> Bool, isolation: isolated (any Actor)?,
                                _ fetch: (Range<Int64>) async throws -> [UInt8]) async throws -> ScannedTags {
        var tags = TrackTags()
        // ID3v2 `CHAP` frames (podcasts); a scan does not ask for them.
        var chapters: [Chapter] = []
        // The bytes where the first frame is looked for, and their offset in the file.
        var window = head[...]
        var windowStart: Int64 = 0
        if let header = ID3v2Parser.header(head[...]), header.isReadable, header.framesMapToFile {
            let read = try await ID3v2RangedReader.read(head: head, header: header, length: length, pictures: pictures, chapters: wanted,
                                                        frameWindow: frameWindow, isolation: isolation, fetch: fetch)
            tags = read.tags
            chapters = read.chapters
            window = read.window
            windowStart = read.windowStart
        } else if let size = ID3v2Parser.tagSize(head[...]) {
            // Frame sizes that are no file offsets (whole-tag unsynchronisation): read on.
            let tagEnd = Int64(size)
            if size <= maxTag {
                let needed = min(length, tagEnd + Int64(frameWindow))
                var bytes = head
                if needed > Int64(head.count) {
                    bytes += try await checkedFetch(Int64(head.count)..<needed, fetch)
                }
                let frames = ID3v2Parser.collect(bytes[...])
                tags = frames?.tags ?? TrackTags()
                if wanted { chapters = frames?.chapters ?? [] }
                window = bytes[min(bytes.count, size)...]
                windowStart = min(Int64(bytes.count), tagEnd)
            } else {
                // Too big to fetch: read the tag's start (text frames come first, as a rule)
                // and the bytes right after it.
                var bytes = head
                let prefixEnd = min(length, Int64(partialTag))
                if prefixEnd > Int64(head.count) {
                    bytes += try await checkedFetch(Int64(head.count)..<prefixEnd, fetch)
                }
                tags = ID3v2Parser.parse(bytes[...])
                windowStart = min(length, tagEnd)
                window = try await checkedFetch(windowStart..<min(length, tagEnd + Int64(frameWindow)), fetch)[...]
            }
        }
        // Two frames back to back, or one the window ends after: where the audio starts.
        let first = MPEGFrameRun.first(in: window, frames: 2, windowEnd: .counts)
        // Not MP3 but FLAC behind a big ID3v2 tag: its metadata blocks start here.
        if first == nil, window.starts(with: FLACMetadataReader.magic) {
            return try await FLACMetadataReader.read(head: Array(window), headStart: windowStart, start: windowStart, length: length,
                                                     pictures: pictures, fetch: { try await checkedFetch($0, fetch) })
        }
        // ID3v1 sits in the last 128 bytes, if they come after the first frame.
        var audioEnd = length
        let tailStart = length - Int64(ID3v1Parser.size)
        let audioStart = windowStart + Int64(first?.offset ?? 0)
        if tailStart >= audioStart + 4, readingTail(tailStart..<length),
           let tail = try await tailFetch(tailStart..<length, fetch) {
            if let old = ID3v1Parser.parse(tail[...]) {
                audioEnd = tailStart
                tags = tags.filled(from: old)  // what ID3v2 left empty
            }
        }
        guard let first else {
            // AAC in ADTS after an ID3v2 tag (packed audio, some `.aac` files).
            if let run = ADTSFrameRun.first(in: window, frames: 2, windowEnd: .counts) {
                let start = windowStart + Int64(run.offset)
                return ScannedTags(codec: .aac, tags: tags, duration: ADTSDuration.estimate(window.dropFirst(run.offset), audioBytes: audioEnd - start))
            }
            // A tag with no audio after it (a file cut short): its tags still tell what it is.
            guard windowStart > 0 else {
                throw ParseError.malformed("an MP3 file without an MPEG audio frame where its audio should start")
            }
            return ScannedTags(codec: .mp3, tags: tags, duration: nil)
        }
        let frame = window.dropFirst(first.offset)
        let lengthHeader = MPEGLengthHeader(frame: frame, header: first.header)
        let duration = mp3Duration(lengthHeader, header: first.header, audioBytes: audioEnd - audioStart)
        // LAME's own measurement only where no tagger wrote a ReplayGain tag.
        if tags.replayGain.isEmpty, let lame = lengthHeader?.replayGain { tags.replayGain = lame }
        return ScannedTags(codec: .mp3, tags: tags, duration: duration, chapters: .ordered(chapters, duration: duration))
    }

    private static func mp3Duration(_ info: MPEGLengthHeader?, header: MPEGFrameHeader, audioBytes: Int64) -> Double? {
        if let info, let samples = info.samples(samplesPerFrame: header.samplesPerFrame, audioBytes: audioBytes) {
            return Double(samples) / Double(header.sampleRate)
        }
        guard audioBytes > 0 else { return nil }
        return Double(audioBytes) * 8 / Double(header.bitrate)
    }

    // MARK: Ogg: Opus and Vorbis

    private static func readOgg(head: [UInt8], length: Int64, isolation: isolated (any Actor)?,
                                 _ fetch: (Range<Int64>) async throws -> [UInt8]) async throws -> ScannedTags {
        var bytes = head
        let packets: [[UInt8]], serial: UInt32
        while true {
            let isWhole = Int64(bytes.count) >= length
            switch OggPacketReader.firstPackets(bytes[...], count: 2, maxPacket: maxOpusHeaders, isWholeFile: isWhole) {
            case .packets(let found, let stream, _):
                packets = found
                serial = stream
            case .invalid(let message):
                throw ParseError.malformed(message)
            case .needsMore:
                guard bytes.count < maxOpusHeaders + OggPage.maxSize else {
                    throw ParseError.malformed("Ogg header packets larger than \(maxOpusHeaders) bytes")
                }
                // Doubling keeps the number of fetches small for a large picture.
                let end = min(length, Int64(bytes.count) * 2, Int64(maxOpusHeaders + OggPage.maxSize))
                bytes += try await checkedFetch(Int64(bytes.count)..<end, fetch)
                continue
            }
            break
        }
        let codec: AudioCodec, comments: VorbisComments.Read, preSkip: Int, rate: Int
        if packets.count == 2, let skip = OpusHeaderParser.preSkip(ofHead: packets[0]) {
            (codec, comments, preSkip, rate) = (.opus, try OpusHeaderParser.comments(packets[1]), skip, 48000)
        } else if packets.count == 2, let vorbisRate = VorbisHeaderParser.sampleRate(ofIdentification: packets[0]) {
            (codec, comments, preSkip, rate) = (.vorbis, try VorbisHeaderParser.comments(packets[1]), 0, vorbisRate)
        } else if packets.count == 2, let flacRate = OggFLACHeaderParser.sampleRate(ofFirst: packets[0]) {
            (codec, comments, preSkip, rate) = (.flac, OggFLACHeaderParser.comments(packets[1]), 0, flacRate)
        } else {
            throw ParseError.unsupported("an Ogg file that is neither Opus, Vorbis nor FLAC")
        }
        var granule: Int64?
        if Int64(bytes.count) >= length {
            granule = OggPage.lastGranule(in: bytes[...], serial: serial)
        } else {
            // The last page is usually in the last 8 KiB; a wider window only adds what it lacks.
            var tail: [UInt8] = []
            var tailStart = length
            for size in tailSizes where granule == nil && tailStart > Int64(bytes.count) {
                let start = max(Int64(bytes.count), length - Int64(size))
                guard let more = try await tailFetch(start..<tailStart, fetch) else { break }
                tail = more + tail
                tailStart = start
                granule = OggPage.lastGranule(in: tail[...], serial: serial)
            }
        }
        // A granule no file of this length can reach is forged, and one not past the pre-skip
        // (a header page's 0) says nothing: the duration is then unknown, not a year or 0 s long.
        // (Vorbis packets are at least a byte for at most 8192 samples, fewer than Opus's bound.)
        let perByte = maxOpusSamplesPerByte * Int64(rate) / 48000 + 1
        let plausible = granule.flatMap { $0 > Int64(preSkip) && $0 / perByte <= length ? $0 : nil }
        let duration = plausible.map { Double($0 - Int64(preSkip)) / Double(rate) }
        return ScannedTags(codec: codec, tags: comments.tags, duration: duration, chapters: .ordered(comments.chapters, duration: duration))
    }

    // MARK: Fetching

    /// Fetches a tail `range`, or nil if `fetch` says it is `TailUnavailable`.
    private static func tailFetch(_ range: Range<Int64>, isolation: isolated (any Actor)? = #isolation,
                                  _ fetch: (Range<Int64>) async throws -> [UInt8]) async throws -> [UInt8]? {
        do {
            return try await checkedFetch(range, fetch)
        } catch is TailUnavailable {
            return nil
        }
    }

    /// Fetches `range`, refusing an answer of another size (a server that ignores ranges).
    static func checkedFetch(_ range: Range<Int64>, isolation: isolated (any Actor)? = #isolation,
                                     _ fetch: (Range<Int64>) async throws -> [UInt8]) async throws -> [UInt8] {
        guard !range.isEmpty else { return [] }
        let bytes = try await fetch(range)
        guard Int64(bytes.count) == range.count else {
            throw ParseError.malformed("asked for \(range.count) bytes at \(range.lowerBound), got \(bytes.count)")
        }
        return bytes
    }
}

import Base
import FoundationEssentials

extension HLSMediaPlaylist {
    /// Reads a media playlist's lines (after `#EXTM3U`). Tags that apply to the next segment
    /// (EXTINF, EXT-X-BYTERANGE, EXT-X-DISCONTINUITY) wait for its URI line; EXT-X-KEY and
    /// EXT-X-MAP apply from there until the next of their kind. Unknown tags are ignored.
    init(lines: ArraySlice<HLSLine>, base: URL) throws {
        var reader = MediaReader(base: base)
        for line in lines { try reader.read(line) }
        guard let targetDuration = reader.targetDuration else {
            throw ParseError.malformed("a media playlist without #EXT-X-TARGETDURATION")
        }
        var segments = reader.segments
        for index in segments.indices { segments[index].sequence = reader.mediaSequence + index }
        self.init(targetDuration: targetDuration, mediaSequence: reader.mediaSequence,
                  discontinuitySequence: reader.discontinuitySequence, segments: segments, ended: reader.ended, type: reader.type)
    }
}

/// The state of a media playlist read line by line.
private struct MediaReader {
    let base: URL
    var targetDuration: Double?
    var mediaSequence = 0
    var discontinuitySequence = 0
    var ended = false
    var type: HLSMediaPlaylist.PlaylistType?
    var segments: [HLSSegment] = []

    /// EXTINF's duration and title, until the URI line.
    private var info: (duration: Double, title: String?)?
    private var range: (length: Int64, offset: Int64?)?
    private var discontinuity = false
    private var key: HLSKey?
    /// Whether an EXT-X-KEY came since the last segment: several in a row are one key in
    /// several formats (FairPlay, Widevine, plain), of which the plain one is wanted.
    private var keyRun = false
    private var map: HLSMap?
    /// The last segment's resource and where its sub-range ended, for a range without offset.
    private var rangeEnd: (uri: URL, end: Int64)?

    init(base: URL) { self.base = base }

    mutating func read(_ line: HLSLine) throws {
        do {
            guard let tag = line.tag else { return try segment(line.text) }
            try apply(tag, line.value)
        } catch let error as ParseError {
            throw line.error(error.message)
        }
    }

    private mutating func apply(_ tag: Substring, _ value: Substring) throws {
        switch tag {
        case "EXT-X-TARGETDURATION":
            guard let seconds = HLSNumbers.decimal(value), seconds <= HLSPlaylist.longestSegment else {
                throw ParseError.malformed("EXT-X-TARGETDURATION:\(value) is not a number of seconds up to a day")
            }
            targetDuration = seconds
        case "EXT-X-MEDIA-SEQUENCE":
            guard let number = HLSNumbers.integer(value), number <= Int.max - HLSPlaylist.maxSegments else {
                throw ParseError.malformed("EXT-X-MEDIA-SEQUENCE:\(value) is not a sequence number")
            }
            mediaSequence = number
        case "EXT-X-DISCONTINUITY-SEQUENCE":
            guard let number = HLSNumbers.integer(value) else { throw ParseError.malformed("EXT-X-DISCONTINUITY-SEQUENCE:\(value) is not a number") }
            discontinuitySequence = number
        case "EXT-X-ENDLIST": ended = true
        case "EXT-X-PLAYLIST-TYPE": type = value == "VOD" ? .vod : value == "EVENT" ? .event : nil
        case "EXTINF": info = try Self.extinf(value)
        case "EXT-X-BYTERANGE":
            guard let parsed = HLSNumbers.byteRange(value) else { throw ParseError.malformed("EXT-X-BYTERANGE:\(value) is not n[@o]") }
            range = parsed
        case "EXT-X-DISCONTINUITY": discontinuity = true
        case "EXT-X-KEY":
            let new = try HLSKey(HLSAttributeList(value), base: base)
            if !keyRun || (key?.isIdentity != true && new?.isIdentity == true) { key = new }
            keyRun = true
        case "EXT-X-MAP": map = try HLSMap(HLSAttributeList(value), base: base)
        default: break
        }
    }

    /// `#EXTINF:<duration>,[<title>]`.
    private static func extinf(_ value: Substring) throws -> (Double, String?) {
        let comma = value.firstIndex(of: ",")
        let number = value[..<(comma ?? value.endIndex)].trimmingWhitespace()
        guard let duration = HLSNumbers.decimal(number), duration <= HLSPlaylist.longestSegment else {
            throw ParseError.malformed("EXTINF duration \"\(number)\" is not a number of seconds up to a day")
        }
        let title = comma.flatMap { TextDecoding.nonEmpty(String(value[value.index(after: $0)...].prefix(TextDecoding.maxBytes))) }
        return (duration, title)
    }

    /// A URI line: the segment the pending tags describe.
    private mutating func segment(_ text: String) throws {
        guard let info else { throw ParseError.malformed("a URI (\(HLSLine.quoted(text))) without #EXTINF before it") }
        guard segments.count < HLSPlaylist.maxSegments else {
            throw ParseError.malformed("more than \(HLSPlaylist.maxSegments) segments")
        }
        guard let uri = LinkResolver.url(text, relativeTo: base) else {
            throw ParseError.malformed("segment URI \"\(HLSLine.quoted(text))\" is not an http(s) URL")
        }
        var byteRange: Range<Int64>?
        if let range {
            let start: Int64
            if let offset = range.offset {
                start = offset
            } else if let last = rangeEnd, last.uri == uri {
                start = last.end
            } else {
                throw ParseError.malformed("EXT-X-BYTERANGE without an offset, and no sub-range of the same resource before it")
            }
            guard range.length <= Int64.max - start else { throw ParseError.malformed("EXT-X-BYTERANGE past 2^63") }
            byteRange = start..<(start + range.length)
        }
        rangeEnd = byteRange.map { (uri: uri, end: $0.upperBound) }
        segments.append(HLSSegment(uri: uri, sequence: 0, duration: info.duration, title: info.title, byteRange: byteRange,
                                   key: key, map: map, discontinuity: discontinuity))
        self.info = nil
        range = nil
        discontinuity = false
        keyRun = false
    }
}

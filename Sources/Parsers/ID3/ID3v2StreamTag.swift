import Model

/// What the bytes at one place of a stream are, for a reader that takes ID3v2 tags out of a live
/// MP3 or AAC stream: a tag, how long, and how it is known; or audio; or not known until more come.
///
/// A tag is known by its header (`ID3`, version 2 to 4, sizes of seven-bit bytes) and what follows
/// it: a frame header or padding. Its length is the size it declares — but ffmpeg writing to an
/// output it cannot seek back in (an Icecast mount) leaves the size 0 (libavformat's id3v2enc.c
/// writes the size once the frames are written, by seeking back), so a tag that declares no body
/// and is followed by a frame is walked frame by frame to where its frames end (`frames`).
package enum ID3v2StreamTag: Equatable, Sendable {
    /// Not a tag here.
    case notATag
    /// Too few bytes to tell.
    case needMore
    /// A tag of `length` bytes (header included), as it declares.
    case sized(length: Int, major: UInt8)
    /// A tag that declares no body but has frames: its 10-byte header, then frames to walk.
    case frames(major: UInt8)

    /// Bytes of a tag's header, and of a frame's header (v2.3, v2.4).
    package static let headerLength = ID3v2Parser.headerSize

    /// What `bytes`, which begin at a place where a tag may start, hold there.
    package static func at(_ bytes: ArraySlice<UInt8>) -> ID3v2StreamTag {
        let signature = Array("ID3".utf8)
        for (index, byte) in bytes.prefix(3).enumerated() where byte != signature[index] { return .notATag }
        guard bytes.count >= headerLength + headerLength else { return .needMore }
        guard let header = ID3v2Parser.header(bytes), header.isReadable, header.flags & 0x0F == 0 else { return .notATag }
        let body = bytes.dropFirst(headerLength)
        if header.bodySize > 0 {
            // The first frame, or padding, or an extended header: anything else is audio that
            // happens to begin with a header's bytes.
            guard header.hasExtendedHeader || ID3v2Parser.isPlausibleNext(body.prefix(4), major: header.major) else { return .notATag }
            return .sized(length: header.total, major: header.major)
        }
        guard header.major >= 3, frameLength(body, major: header.major) != nil else { return .notATag }
        return .frames(major: header.major)
    }

    /// The length (header and body) of the frame whose header starts `bytes`, or nil where no
    /// frame starts: padding, or the audio after a walked tag.
    package static func frameLength(_ bytes: ArraySlice<UInt8>, major: UInt8) -> Int? {
        guard bytes.count >= headerLength, let frame = ID3v2Parser.frameHeader(bytes, major: major) else { return nil }
        return headerLength + frame.size
    }

    /// The tags of a walked tag whose bytes (from its header on, maybe cut short) are `bytes` and
    /// whose frames were found to take `bodyLength` bytes: read as if its header had said so.
    package static func tags(ofWalked bytes: [UInt8], bodyLength: Int) -> TrackTags {
        var fixed = bytes
        guard fixed.count >= headerLength, bodyLength < 1 << 28 else { return TrackTags() }
        for index in 0..<4 { fixed[6 + index] = UInt8((bodyLength >> (7 * (3 - index))) & 0x7F) }
        return ID3v2Parser.parse(fixed[...])
    }
}

import Model

/// Reads a FLAC file's metadata blocks through byte ranges: STREAMINFO for the exact length,
/// VORBIS_COMMENT for the tags, PICTURE blocks for art. For a scan, big pictures and padding
/// are stepped over by their size, so a 2 MB cover costs it a few bytes, not 2 MB; a track that
/// plays fetches its cover whatever its size (up to `maxPicture`).
package enum FLACMetadataReader {
    static let magic = Array("fLaC".utf8)
    /// A scan fetches a PICTURE block up to this size for art, and steps over a bigger one.
    static let maxScannedPicture = 48 * 1024
    /// Playing, a PICTURE block up to this size is fetched (as an ID3v2 picture is).
    static let maxPicture = 16 * 1024 * 1024
    /// Bytes fetched at a block header that is not in hand: it and small blocks after it.
    static let window = 4 * 1024
    /// More blocks than any real file has: the walk stays bounded whatever the headers say.
    static let maxBlocks = 256

    /// `head`: bytes in hand, from `headStart` on. `start`: where `fLaC` is (after an ID3v2 tag,
    /// or 0). `pictures`: false for a scan (small pictures only). `fetch(range)` returns exactly
    /// those bytes.
    static func read(head: [UInt8], headStart: Int64 = 0, start: Int64, length: Int64, pictures: Bool,
                     isolation: isolated (any Actor)? = #isolation,
                     fetch: (Range<Int64>) async throws -> [UInt8]) async throws -> ScannedTags {
        let largestPicture = pictures ? maxPicture : maxScannedPicture
        var held = head
        var heldStart = headStart
        /// The bytes of `range` (clipped to the file), from what is in hand or fetched with a window.
        func bytes(_ range: Range<Int64>) async throws -> ArraySlice<UInt8> {
            let end = min(range.upperBound, length)
            guard range.lowerBound < end else { return [] }
            if range.lowerBound < heldStart || end > heldStart + Int64(held.count) {
                heldStart = range.lowerBound
                held = try await fetch(heldStart..<min(length, max(end, heldStart + Int64(window))))
            }
            return held[Int(range.lowerBound - heldStart)..<Int(end - heldStart)]
        }

        var info: FLACStreamInfo?
        var tags = TrackTags()
        var chapters: [Chapter] = []
        var pictures = PictureChoice()
        var offset = start + Int64(magic.count)
        for _ in 0..<maxBlocks {
            guard let header = FLACBlockHeader(try await bytes(offset..<(offset + Int64(FLACBlockHeader.size)))) else { break }
            let body = (offset + Int64(FLACBlockHeader.size))..<(offset + Int64(FLACBlockHeader.size + header.bodySize))
            switch header.type {
            case FLACBlockHeader.streamInfo:
                if info == nil { info = FLACStreamInfo(try await bytes(body)) }
            case FLACBlockHeader.vorbisComment:
                (tags, chapters) = VorbisComments.read(try await bytes(body)).pair
            case FLACBlockHeader.picture where header.bodySize <= largestPicture:
                if let (type, artwork) = FLACPicture.parse(try await bytes(body), maxBytes: largestPicture) {
                    pictures.offer(artwork, type: type)
                }
            default:
                break  // padding, seek table, application data, big pictures: stepped over
            }
            offset = body.upperBound
            if header.isLast || offset >= length { break }
        }
        guard let info else { throw ParseError.malformed("a FLAC file without a STREAMINFO block") }
        // A comment's picture (METADATA_BLOCK_PICTURE) counts as well as a PICTURE block's.
        tags.artwork = tags.artwork ?? pictures.chosen
        return ScannedTags(codec: .flac, tags: tags, duration: info.duration, chapters: .ordered(chapters, duration: info.duration))
    }
}

import Model

/// Reads a Vorbis comment list — the tags of Vorbis, Opus and FLAC alike: a vendor string, then
/// `KEY=value` comments; cover art as base64 of a FLAC picture block (`METADATA_BLOCK_PICTURE`).
package enum VorbisComments {
    /// The largest picture kept.
    static let maxPicture = 16 * 1024 * 1024
    /// More comments than any real file has: the loop stays bounded whatever the count says.
    static let maxComments = 10_000

    /// What a comment list says: the tags, and the chapters of `CHAPTERnnn` comments (unordered).
    package struct Read: Sendable {
        package var tags: TrackTags
        package var chapters: [Chapter]

        var pair: (TrackTags, [Chapter]) { (tags, chapters) }
    }

    /// The tags and chapters in `body` (the list after any codec's magic), which may be cut
    /// short: comments past the end are lost, the ones before them kept.
    static func read(_ body: ArraySlice<UInt8>) -> Read {
        var reader = ByteReader(body)
        guard let vendorLength = reader.u32le(), reader.skip(vendorLength), let count = reader.u32le() else {
            return Read(tags: TrackTags(), chapters: [])
        }
        var comments: [ArraySlice<UInt8>] = []
        for _ in 0..<min(count, maxComments) {
            guard let length = reader.u32le(), let comment = reader.take(length) else { break }
            comments.append(comment)
        }
        return Read(tags: tags(comments), chapters: ChapterComments.chapters(in: comments))
    }

    /// The tags in `KEY=value` comments as a decoder library hands them (a chained stream's
    /// link, from libvorbisfile or libopusfile).
    package static func tags(_ comments: [ArraySlice<UInt8>]) -> TrackTags {
        var tags = TrackTags()
        var pictures = PictureChoice()
        var loudness = ReplayGainReader()
        for comment in comments.prefix(maxComments) {
            guard let equals = comment.firstIndex(of: UInt8(ascii: "=")) else { continue }
            let key = TextDecoding.latin1(comment[..<equals].prefix(64)).uppercased()
            let raw = comment[(equals + 1)...]
            if key == "METADATA_BLOCK_PICTURE" {
                if let block = Base64.decode(raw, maxBytes: maxPicture + 64 * 1024),
                   let (type, artwork) = FLACPicture.parse(block[...], maxBytes: maxPicture) {
                    pictures.offer(artwork, type: type)
                }
                continue
            }
            guard let value = TextDecoding.nonEmpty(TextDecoding.utf8(raw)) else { continue }
            if loudness.take(key, value) { continue }
            switch key {
            case "TITLE": tags.title = tags.title ?? value
            case "ARTIST": tags.artist = tags.artist ?? value
            case "ALBUM": tags.album = tags.album ?? value
            case "ALBUMARTIST", "ALBUM ARTIST", "ALBUM_ARTIST": tags.albumArtist = tags.albumArtist ?? value
            case "TRACKNUMBER": tags.trackNumber = tags.trackNumber ?? TagValue.leadingNumber(value)
            case "DISCNUMBER": tags.discNumber = tags.discNumber ?? TagValue.leadingNumber(value)
            case "DATE", "YEAR": tags.year = tags.year ?? TagValue.year(value)
            case "GENRE": tags.genre = tags.genre ?? value
            default: break
            }
            tags.offer(value, for: TextTagNames.vorbis[key])
        }
        tags.artwork = pictures.chosen
        tags.replayGain = loudness.gain
        return tags
    }
}

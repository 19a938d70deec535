import Model

extension ID3v2Parser {
    /// Turns frames into tags, one at a time, whether they come from a tag read whole or from
    /// ranged reads that skip what is not wanted.
    struct FrameCollector {
        let major: UInt8
        /// The tag's unsynchronisation flag: in v2.4 it means every frame is unsynchronised.
        let unsynchronised: Bool
        private var collected = TrackTags()
        private var pictures = PictureChoice()
        private var originalYear: Int?
        private var loudness = ReplayGainReader()
        private var chapterFrames = ID3ChapterFrames()
        /// HLS packed audio's `PRIV` time stamp (`HLSID3Tag`).
        private(set) var transportTimestamp: Int64?
        /// `TXXX` frames' values by description, upper-cased: where some stations put the song.
        private(set) var userTexts: [String: String] = [:]

        init(major: UInt8, unsynchronised: Bool) {
            self.major = major
            self.unsynchronised = unsynchronised
        }

        /// The chapters of `CHAP` frames (unordered: `[Chapter].ordered` makes them fit to use).
        var chapters: [Chapter] { chapterFrames.found }

        var tags: TrackTags {
            var tags = collected
            tags.artwork = pictures.chosen
            tags.year = tags.year ?? originalYear
            tags.replayGain = loudness.gain
            return tags
        }

        mutating func add(_ header: FrameHeader, _ body: ArraySlice<UInt8>) {
            var data = body
            if major == 3 {
                if header.format & 0xC0 != 0 { return }  // compressed or encrypted
                if header.format & 0x20 != 0 { data = data.dropFirst(1) }  // group identifier
            } else if major == 4 {
                if header.format & 0x0C != 0 { return }  // compressed or encrypted
                if header.format & 0x40 != 0 { data = data.dropFirst(1) }
                if header.format & 0x01 != 0 { data = data.dropFirst(4) }  // data length indicator
                if header.format & 0x02 != 0 || unsynchronised { data = removingUnsynchronisation(data)[...] }
            }
            apply(header.id, data)
        }

        private mutating func apply(_ id: String, _ data: ArraySlice<UInt8>) {
            if id == "APIC" || id == "PIC" {
                if let (type, artwork) = Self.picture(data, legacy: id == "PIC") { pictures.offer(artwork, type: type) }
                return
            }
            if id == "RVA2" { return loudness.takeRVA2(data) }
            if id == "CHAP" { return chapterFrames.takeChapter(data, major: major) }
            if id == "CTOC" { return chapterFrames.takeTableOfContents(data) }
            if id == "TXXX" || id == "TXX" { return userText(data) }
            if id == "PRIV" { return privateData(data) }
            if id == "COMM" || id == "COM" { return comment(data) }
            if id == "UFID" || id == "UFI" { return uniqueFileID(data) }
            guard id.hasPrefix("T"), let value = ID3Text.firstValue(ofTextFrame: data) else { return }
            collected.offer(value, for: TextTagNames.id3Frames[id])
            switch id {
            case "TIT2", "TT2": collected.title = collected.title ?? value
            case "TPE1", "TP1": collected.artist = collected.artist ?? value
            case "TALB", "TAL": collected.album = collected.album ?? value
            case "TPE2", "TP2": collected.albumArtist = collected.albumArtist ?? value
            case "TRCK", "TRK": collected.trackNumber = collected.trackNumber ?? TagValue.leadingNumber(value)
            case "TPOS", "TPA": collected.discNumber = collected.discNumber ?? TagValue.leadingNumber(value)
            case "TYER", "TYE", "TDRC": collected.year = collected.year ?? TagValue.year(value)
            case "TDOR", "TORY", "TOR": originalYear = originalYear ?? TagValue.year(value)
            case "TCON", "TCO": collected.genre = collected.genre ?? ID3Genre.resolve(value)
            default: break
            }
        }

        /// A user-defined text frame: a description ("REPLAYGAIN_TRACK_GAIN"), then its value.
        private mutating func userText(_ data: ArraySlice<UInt8>) {
            guard let encoding = data.first else { return }
            let (description, rest) = ID3Text.terminated(data.dropFirst(), encoding: encoding)
            guard let value = ID3Text.firstValue(ofTextFrame: ArraySlice([encoding] + rest)) else { return }
            if let tag = TextTagNames.musicBrainz[description.uppercased()] { return collected.offer(value, for: tag) }
            if !loudness.take(description, value), userTexts.count < 16 {
                userTexts[description.uppercased()] = userTexts[description.uppercased()] ?? value
            }
        }

        /// A comment frame: an encoding, a language, a description, the text. The one without a
        /// description is the comment (others are players' notes, iTunes' `iTunNORM`), as MPD reads it.
        private mutating func comment(_ data: ArraySlice<UInt8>) {
            guard let encoding = data.first, data.count > 4 else { return }
            let (description, rest) = ID3Text.terminated(data.dropFirst(4), encoding: encoding)
            guard description.isEmpty, let value = ID3Text.firstValue(ofTextFrame: ArraySlice([encoding] + rest)) else { return }
            collected.offer(value, for: .comment)
        }

        /// A unique file identifier: an owner (Latin-1), then up to 64 bytes. MusicBrainz's
        /// (`http://musicbrainz.org`) is the recording's id, MPD's `MUSICBRAINZ_TRACKID`.
        private mutating func uniqueFileID(_ data: ArraySlice<UInt8>) {
            let (owner, rest) = ID3Text.terminated(data, encoding: 0)
            guard owner == "http://musicbrainz.org", !rest.isEmpty, rest.count <= 64 else { return }
            collected.offer(TextDecoding.nonEmpty(TextDecoding.latin1(rest)), for: .musicBrainzTrackID)
        }

        /// A PRIV frame: an owner (a Latin-1 string), then data. HLS packed audio's owner
        /// `com.apple.streaming.transportStreamTimestamp` gives the segment's first PTS, 33 bits
        /// in 8 big-endian bytes (RFC 8216 §3.4).
        private mutating func privateData(_ data: ArraySlice<UInt8>) {
            let (owner, rest) = ID3Text.terminated(data, encoding: 0)
            var reader = ByteReader(rest)
            guard owner == "com.apple.streaming.transportStreamTimestamp", rest.count == 8,
                  let value = reader.bigEndian(8) else { return }
            transportTimestamp = transportTimestamp ?? Int64(value & 0x1_FFFF_FFFF)
        }

        /// An APIC (v2.3/2.4: MIME type) or PIC (v2.2: three-letter format) frame's picture type and image.
        static func picture(_ data: ArraySlice<UInt8>, legacy: Bool) -> (UInt8, Artwork)? {
            var reader = ByteReader(data)
            guard let encoding = reader.u8() else { return nil }
            let mimeType: String
            if legacy {
                guard let format = reader.take(3) else { return nil }
                mimeType = TextDecoding.latin1(format).uppercased() == "PNG" ? "image/png" : "image/jpeg"
            } else {
                let (mime, rest) = ID3Text.terminated(reader.rest(), encoding: 0)
                reader = ByteReader(rest)
                mimeType = mime.lowercased() == "png" ? "image/png" : mime
            }
            guard let type = reader.u8() else { return nil }
            let (_, image) = ID3Text.terminated(reader.rest(), encoding: encoding)
            guard !image.isEmpty, image.count <= maxPicture else { return nil }
            return (type, Artwork(data: Array(image), mimeType: mimeType))
        }
    }
}

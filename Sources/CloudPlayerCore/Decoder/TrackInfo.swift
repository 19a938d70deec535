/// The codec an audio file was recognised as, from its bytes.
public enum AudioCodec: String, Sendable {
    case mp3 = "MP3"
    case opus = "Opus"
}

/// A picture embedded in the file (ID3 APIC, Opus METADATA_BLOCK_PICTURE): the front cover if
/// there is one, else the first.
public struct Artwork: Sendable, Equatable {
    public var data: [UInt8]
    /// The file name extension its MIME type calls for ("jpg", "png", …).
    public var fileExtension: String

    public init(data: [UInt8], mimeType: String) {
        self.data = data
        switch mimeType.lowercased() {
        case "image/png": fileExtension = "png"
        case "image/gif": fileExtension = "gif"
        case "image/webp": fileExtension = "webp"
        default: fileExtension = "jpg"
        }
    }
}

/// Tags read from the file itself (ID3, Opus comments).
public struct TrackTags: Sendable, Equatable {
    public var title: String?
    public var artist: String?
    public var album: String?
    public var albumArtist: String?
    public var trackNumber: Int?
    public var genre: String?
    public var artwork: Artwork?
    public var year: Int?
    public var discNumber: Int?

    public init(title: String? = nil, artist: String? = nil, album: String? = nil,
                albumArtist: String? = nil, trackNumber: Int? = nil, genre: String? = nil, artwork: Artwork? = nil,
                year: Int? = nil, discNumber: Int? = nil) {
        self.title = title
        self.artist = artist
        self.album = album
        self.albumArtist = albumArtist
        self.trackNumber = trackNumber
        self.genre = genre
        self.artwork = artwork
        self.year = year
        self.discNumber = discNumber
    }
}

/// What the decoder learnt when it opened a track.
public struct TrackInfo: Sendable, Equatable {
    public var codec: AudioCodec
    public var format: PCMFormat
    /// Exact for Opus and for MP3 with a Xing/Info/VBRI header, estimated otherwise; nil if unknown.
    public var totalFrames: Int64?
    public var tags: TrackTags

    public init(codec: AudioCodec, format: PCMFormat, totalFrames: Int64?, tags: TrackTags) {
        self.codec = codec
        self.format = format
        self.totalFrames = totalFrames
        self.tags = tags
    }

    /// Length in seconds, if known.
    public var duration: Double? {
        totalFrames.map { Double($0) / Double(format.sampleRate) }
    }

    /// The frame index of a time in seconds: `round(seconds × rate)`, never negative; a time
    /// that is not a number counts as 0, one too large for any file as the largest frame index.
    public func frame(at seconds: Double) -> Int64 {
        let frame = (seconds * Double(format.sampleRate)).rounded()
        guard frame > 0 else { return 0 }  // also NaN and -inf
        return frame >= Double(Int64.max) ? Int64.max : Int64(frame)
    }
}

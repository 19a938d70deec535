/// Tags read from the file itself (ID3, Vorbis comments in Opus, Vorbis and FLAC).
package struct TrackTags: Sendable, Hashable {
    package var title: String?
    package var artist: String?
    package var album: String?
    package var albumArtist: String?
    package var trackNumber: Int?
    package var genre: String?
    package var artwork: Artwork?
    package var year: Int?
    package var discNumber: Int?
    /// Loudness tags: how much to turn the track up or down (`[playback] replaygain`).
    package var replayGain: ReplayGain
    /// The other text tags the file holds (composer, the date as written, …).
    package var more: [TextTag: String]

    package init(title: String? = nil, artist: String? = nil, album: String? = nil,
                albumArtist: String? = nil, trackNumber: Int? = nil, genre: String? = nil, artwork: Artwork? = nil,
                year: Int? = nil, discNumber: Int? = nil, replayGain: ReplayGain = ReplayGain(), more: [TextTag: String] = [:]) {
        self.title = title
        self.artist = artist
        self.album = album
        self.albumArtist = albumArtist
        self.trackNumber = trackNumber
        self.genre = genre
        self.artwork = artwork
        self.year = year
        self.discNumber = discNumber
        self.replayGain = replayGain
        self.more = more
    }

    /// These tags, with the fields they leave empty taken from `other` (an ID3v1 tag behind an
    /// ID3v2 one; a file's own tags behind what the library knew).
    package func filled(from other: TrackTags) -> TrackTags {
        var tags = self
        tags.title = title ?? other.title
        tags.artist = artist ?? other.artist
        tags.album = album ?? other.album
        tags.albumArtist = albumArtist ?? other.albumArtist
        tags.trackNumber = trackNumber ?? other.trackNumber
        tags.genre = genre ?? other.genre
        tags.artwork = artwork ?? other.artwork
        tags.year = year ?? other.year
        tags.discNumber = discNumber ?? other.discNumber
        tags.replayGain = replayGain.filled(from: other.replayGain)
        tags.more = more.merging(other.more) { mine, _ in mine }
        return tags
    }
}

import FoundationEssentials
import Model

/// A song as MPD 0.23 prints it (`currentsong`, `playlistinfo`, `lsinfo`, `find`, ...): `file`,
/// `Last-Modified`, `Format`, the tags, `Time` and `duration`, then `Pos` and `Id` for a queued
/// one — the fields and their order of MPD's `song_print_info` and `queue_print_song_info`.
/// A field whose value is unknown is left out, as MPD does.
package struct MPDSong: Sendable {
    /// Its MPD URI: a path relative to the music directory (`SOURCE/path`), or a URL.
    package var uri: String
    package var metadata: TrackMetadata
    package var lastModified: Date?
    /// The decoded format (the current song's, once it plays).
    package var format: PCMFormat?
    /// Its place in the queue, and its queue id, for a queued song.
    package var position: Int?
    package var id: UInt64?

    package init(uri: String, metadata: TrackMetadata, lastModified: Date? = nil, format: PCMFormat? = nil,
                 position: Int? = nil, id: UInt64? = nil) {
        self.uri = uri
        self.metadata = metadata
        self.lastModified = lastModified
        self.format = format
        self.position = position
        self.id = id
    }

    /// Writes the song; `tags`: the tags the client asked for (`tagtypes`).
    package func write(to response: inout MPDResponse, tags: Set<MPDTag> = MPDSong.allTags) {
        response.field("file", uri)
        if let lastModified { response.field("Last-Modified", Self.timestamp(lastModified)) }
        if let format { response.field("Format", Self.format(format)) }
        // Every tag, as most clients keep them: no set asked (each asking hashes).
        let all = tags.count == MPDTag.allCases.count
        for tag in MPDTag.allCases where all || tags.contains(tag) {
            if let value = Self.value(of: tag, in: metadata.tags) { response.field(tag.rawValue, value) }
        }
        if let duration = metadata.duration, duration.isFinite, duration >= 0 {
            response.field("Time", Int(duration.rounded()))
            response.field("duration", seconds: duration)
        }
        if let position { response.field("Pos", position) }
        if let id { response.field("Id", id) }
    }

    package static let allTags = Set(MPDTag.allCases)

    /// A tag's value as MPD prints it; nil when the track has none.
    package static func value(of tag: MPDTag, in tags: TrackTags) -> String? {
        let value: String?
        switch tag {
        case .artist: value = tags.artist
        case .albumArtist: value = tags.albumArtist
        case .title: value = tags.title
        case .album: value = tags.album
        case .track: value = tags.trackNumber.map(String.init)
        // As the tag writes it ("2019-03-01"), as MPD shows it; else the year a server listed.
        case .date: value = tags.more[.date] ?? tags.year.map(String.init)
        case .genre: value = tags.genre
        case .disc: value = tags.discNumber.map(String.init)
        default: value = tag.textTag.flatMap { tags.more[$0] }
        }
        return value?.isEmpty == false ? value : nil
    }

    /// MPD's `Format` (and `status`'s `audio`): `rate:bits:channels`.
    package static func format(_ format: PCMFormat) -> String {
        "\(format.sampleRate):\(format.bitsPerSample):\(format.channels)"
    }

    /// ISO 8601 in UTC, to the second, as MPD writes `Last-Modified`.
    package static func timestamp(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(timeZone: .gmt))
    }
}

import DBus
import FoundationEssentials
import Model
import Playback

/// What MPRIS shows: the player's state as its last event carried it, and the library's
/// playlists. Property reads on the bus thread are answered from it at once, never by asking
/// the player; metadata and track ids are derived from it here, in one place.
package struct MPRISState: Sendable {
    package var player = PlayerSnapshot()
    /// The library's playlists, by name.
    package var playlists: [MPRISPlaylist] = []

    package init() {}

    /// The library playlist the queue was made from, while the queue is still that playlist's.
    package var activePlaylist: MPRISPlaylist? {
        player.queue.playlist.flatMap { id in playlists.first { $0.libraryID == id } }
    }

    /// The object path MPRIS clients see for a queue entry (not under /org/mpris, as the spec asks).
    package static func trackID(_ entry: QueueEntry) -> String {
        "/org/cloudplayerd/track/\(entry.id)"
    }

    /// The queue entries that track ids name, in their order, each once; ids not in the track
    /// list are left out, and at most `limit` ids are looked at (a client may send millions).
    package func entries(trackIDs: [String], limit: Int = 10_000) -> [QueueEntry] {
        let byID = Dictionary(player.queue.entries.map { (Self.trackID($0), $0) }, uniquingKeysWith: { first, _ in first })
        var seen = Set<String>()
        return trackIDs.prefix(limit).compactMap { id in seen.insert(id).inserted ? byID[id] : nil }
    }

    package func entry(trackID: String) -> QueueEntry? {
        entries(trackIDs: [trackID]).first
    }

    /// The current track's metadata (with its cover art), or none. In a track with chapters (an
    /// audiobook) the title is the chapter heard, and the album the book: what a media widget
    /// shows in its two lines, and changes as the chapters go by. A station likewise: the song
    /// heard (title and artist) and the station as the album.
    package var currentMetadata: BusFields {
        guard let entry = player.current else { return BusFields() }
        var fields = metadata(of: entry, chapter: player.currentChapter.flatMap { $0.title.isEmpty ? nil : $0 }, song: player.streamSong)
        if let art = player.chapterArtwork ?? player.artwork { fields.entries.append(("mpris:artUrl", .string(art.absoluteString))) }
        return fields
    }

    /// A queued track's metadata: its tags as the library knew them, or as the decoder read them
    /// once it played; its location at least — never with credentials or a query; how much of
    /// it is cached.
    package func metadata(of entry: QueueEntry, chapter: Chapter? = nil, song: TrackTags? = nil) -> BusFields {
        let tags = entry.metadata.tags
        let songTitle = song?.title
        let title = songTitle ?? chapter?.title ?? entry.title
        var fields: [(String, BusValue)] = [("mpris:trackid", .objectPath(Self.trackID(entry))), ("xesam:title", .string(title))]
        if let duration = entry.metadata.duration { fields.append(("mpris:length", .int64(MPRIS.microseconds(duration)))) }
        if let artist = songTitle != nil ? song?.artist : tags.artist { fields.append(("xesam:artist", [artist].busValue)) }
        if let album = chapter != nil || songTitle != nil ? entry.title : tags.album { fields.append(("xesam:album", .string(album))) }
        if let albumArtist = tags.albumArtist { fields.append(("xesam:albumArtist", [albumArtist].busValue)) }
        if let number = tags.trackNumber { fields.append(("xesam:trackNumber", .int32(Int32(clamping: number)))) }
        if let genre = tags.genre { fields.append(("xesam:genre", [genre].busValue)) }
        fields.append(("xesam:url", .string(entry.location.publicURI)))
        // How much of it would play offline: "full", "partial" or "none" (once the loader said).
        if let cached = player.cached[entry.location] { fields.append(("cloudplayerd:cached", .string(cached.rawValue))) }
        return BusFields(fields)
    }
}

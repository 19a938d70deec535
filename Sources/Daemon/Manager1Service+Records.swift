import FoundationEssentials
import Library
import Manager1
import Model

/// The library's values as the records Manager1 sends: what `cloudplayerctl` prints and `--json`
/// passes on.
extension Manager1Service {
    static func record(_ track: LibraryTrack) -> Manager1.Track {
        var record = Manager1.Track(url: track.url, title: track.displayTitle)
        record.id = track.id ?? 0
        record.source = track.source
        record.gone = track.gone
        record.artist = track.artist
        record.album = track.album
        record.albumArtist = track.albumArtist
        record.genre = track.genre
        record.codec = track.codec
        record.problem = track.problem
        record.track = track.trackNumber.map { Int32(clamping: $0) }
        record.disc = track.discNumber.map { Int32(clamping: $0) }
        record.year = track.year.map { Int32(clamping: $0) }
        record.duration = track.duration
        record.published = track.published.map { Int64($0.timeIntervalSince1970) }
        record.resumeAt = track.resumeAt
        record.played = track.played ? true : nil
        return record
    }

    static func record(_ summary: PlaylistSummary) -> Manager1.Playlist {
        let playlist = summary.playlist
        return Manager1.Playlist(id: playlist.id ?? 0, name: playlist.name, kind: playlist.kind.rawValue, source: playlist.source ?? "",
                                 tracks: UInt32(clamping: summary.count), pinned: playlist.pinned)
    }

    /// A playlist line: the library's track if it knows the location (with the line's own title
    /// if `itemTitle`), else the location and the line's title.
    static func record(_ entry: PlaylistEntry, itemTitle: Bool = false) -> Manager1.Track {
        if let track = entry.track {
            var record = record(track)
            if itemTitle, let title = entry.title { record.title = title }
            return record
        }
        return Manager1.Track(url: entry.url, title: entry.title ?? TrackLocation(uri: entry.url).displayName)
    }

    static func record(_ report: ScanReport) -> Manager1.ScanReport {
        Manager1.ScanReport(source: report.source, folders: UInt32(clamping: report.folders), tracks: UInt32(clamping: report.tracks),
                            tagsRead: UInt32(clamping: report.tagsRead), gone: UInt32(clamping: report.gone),
                            playlists: UInt32(clamping: report.playlists), bytes: report.bytesFetched, failed: report.failed,
                            problems: report.problems)
    }
}

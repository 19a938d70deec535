import Base
import DBus
import Foundation
import Model
import Playback

/// What MPRIS says about the player, kept current from the player's events so that property
/// reads on the bus thread are answered at once, without waiting on the player.
package final class MPRISModel: Sendable {
    static let rootInterface = "org.mpris.MediaPlayer2"
    static let playerInterface = "org.mpris.MediaPlayer2.Player"
    static let trackListInterface = "org.mpris.MediaPlayer2.TrackList"
    static let playlistsInterface = "org.mpris.MediaPlayer2.Playlists"
    /// The track id that means "no track" (AddTrack at the start, TrackAdded at the start).
    static let noTrack = "/org/mpris/MediaPlayer2/TrackList/NoTrack"

    struct State: Sendable {
        var status: PlaybackStatus = .stopped
        var entry: QueueEntry?
        var info: TrackInfo?
        /// The current track's cover art as a local file.
        var artURL: URL?
        var volume = 1.0
        /// The position at `anchorTime`; while playing it moves on in real time from there.
        var anchorSeconds = 0.0
        var anchorTime = ContinuousClock.now
        /// Bumped by every event that sets the anchor, so a periodic refresh read before it
        /// cannot overwrite it with an older position.
        var anchorSequence = 0
        var canGoNext = false
        var canGoPrevious = false
        var loop: LoopMode = .none
        var shuffle = false
        /// The queue, in queue order: MPRIS's track list.
        var tracks: [QueueEntry] = []
        /// The library's playlists, by name: MPRIS's Playlists.
        var playlists: [MPRISPlaylist] = []
        var activePlaylist: MPRISPlaylist?
        /// What the decoder read of each queued track that has played (pictures left out), so
        /// the track list keeps a track's tags after the next one starts.
        var heard: [QueueEntry.ID: TrackInfo] = [:]
    }

    /// A library playlist's MPRIS id.
    package static func playlistID(_ id: Int64) -> String {
        "/org/cloudplayerd/playlist/\(id)"
    }

    /// The library id in an MPRIS playlist id, if it is one of ours.
    static func libraryID(ofPlaylist path: String) -> Int64? {
        let prefix = "/org/cloudplayerd/playlist/"
        return path.hasPrefix(prefix) ? Int64(path.dropFirst(prefix.count)) : nil
    }

    let identity = "cloudplayerd"
    let uriSchemes = ["file", "http", "https"]
    let mimeTypes = ["audio/mpeg", "audio/mp3", "audio/ogg", "audio/opus"]
    private let state = Locked(State())

    var current: State { state.withLock { $0 } }

    /// Applies `change` and returns, per interface, the emitting properties whose values changed.
    func update(_ change: (inout State) -> Void) -> [String: [String]] {
        let (before, after) = state.withLock { state in
            let before = state
            change(&state)
            return (before, state)
        }
        var changed: [String: [String]] = [:]
        for (interface, names) in [(Self.playerInterface, Self.playerEmitting), (Self.trackListInterface, ["Tracks"])] {
            let differing = names.filter { value(interface, $0, in: before) != value(interface, $0, in: after) }
            if !differing.isEmpty { changed[interface] = differing }
        }
        return changed
    }

    /// Player properties announced by PropertiesChanged (Position never is, by the spec).
    static let playerEmitting = ["PlaybackStatus", "LoopStatus", "Shuffle", "Metadata", "Volume", "CanGoNext",
                                 "CanGoPrevious", "CanPlay", "CanPause", "CanSeek"]

    /// Seconds as MPRIS's microseconds, clamped: a file may claim any length, and a trap on
    /// the bus thread would take the daemon down.
    static func microseconds(_ seconds: Double) -> Int64 {
        let value = (seconds * 1e6).rounded()
        guard value > 0 else { return 0 }  // also NaN
        return value >= Double(Int64.max) ? Int64.max : Int64(value)
    }

    /// The object path MPRIS clients see for a queue entry (not under /org/mpris, as the spec asks).
    static func trackID(_ entry: QueueEntry) -> String {
        "/org/cloudplayerd/track/\(entry.id)"
    }

    /// The queue entry a track id names, if it is in the track list.
    func entry(trackID: String) -> QueueEntry? {
        entries(trackIDs: [trackID]).first
    }

    /// The queue entries that track ids name, in their order, each once; ids not in the track
    /// list are left out, and at most `limit` ids are looked at (a client may send millions).
    func entries(trackIDs: [String], limit: Int = 10_000) -> [QueueEntry] {
        let byID = Dictionary(current.tracks.map { (Self.trackID($0), $0) }, uniquingKeysWith: { first, _ in first })
        var seen = Set<String>()
        return trackIDs.prefix(limit).compactMap { id in seen.insert(id).inserted ? byID[id] : nil }
    }

    /// Metadata of queued tracks: what the decoder read for those that have played, the
    /// location for the others.
    func metadata(of entries: [QueueEntry]) -> BusValue {
        let state = current
        return .dictionaries(entries.map { entry in
            fields(entry, info: entry == state.entry ? state.info : state.heard[entry.id])
        })
    }

    func value(_ interface: String, _ property: String) -> BusValue? {
        value(interface, property, in: current)
    }

    func position(in state: State) -> Double {
        switch state.status {
        case .stopped: return 0
        case .paused: return state.anchorSeconds
        case .playing:
            let elapsed = ContinuousClock.now - state.anchorTime
            let seconds = state.anchorSeconds + Double(elapsed.components.seconds)
                + Double(elapsed.components.attoseconds) / 1e18
            return min(seconds, state.info?.duration ?? seconds)
        }
    }

    private func value(_ interface: String, _ property: String, in state: State) -> BusValue? {
        switch (interface, property) {
        case (Self.rootInterface, "CanQuit"): .bool(true)
        case (Self.rootInterface, "CanRaise"): .bool(false)
        case (Self.rootInterface, "HasTrackList"): .bool(true)
        case (Self.rootInterface, "Identity"): .string(identity)
        case (Self.rootInterface, "DesktopEntry"): .string("cloudplayerd")
        case (Self.rootInterface, "SupportedUriSchemes"): .strings(uriSchemes)
        case (Self.rootInterface, "SupportedMimeTypes"): .strings(mimeTypes)
        case (Self.playerInterface, "PlaybackStatus"): .string(state.status.rawValue)
        case (Self.playerInterface, "LoopStatus"): .string(state.loop.rawValue)
        case (Self.playerInterface, "Shuffle"): .bool(state.shuffle)
        case (Self.playerInterface, "Rate"), (Self.playerInterface, "MinimumRate"),
             (Self.playerInterface, "MaximumRate"): .double(1)
        case (Self.playerInterface, "Metadata"): metadata(state)
        case (Self.playerInterface, "Volume"): .double(state.volume)
        case (Self.playerInterface, "Position"): .int64(Self.microseconds(position(in: state)))
        case (Self.playerInterface, "CanGoNext"): .bool(state.canGoNext)
        case (Self.playerInterface, "CanGoPrevious"): .bool(state.canGoPrevious)
        // With tracks queued and none current, Play starts the first: playing is possible.
        case (Self.playerInterface, "CanPlay"), (Self.playerInterface, "CanPause"): .bool(state.entry != nil || !state.tracks.isEmpty)
        case (Self.playerInterface, "CanSeek"): .bool(state.entry != nil && state.info?.totalFrames != nil)
        case (Self.playerInterface, "CanControl"): .bool(true)
        case (Self.trackListInterface, "Tracks"): .objectPaths(state.tracks.map(Self.trackID))
        case (Self.trackListInterface, "CanEditTracks"): .bool(true)
        case (Self.playlistsInterface, "PlaylistCount"): .uint32(UInt32(clamping: state.playlists.count))
        case (Self.playlistsInterface, "Orderings"): .strings(["Alphabetical"])
        case (Self.playlistsInterface, "ActivePlaylist"): .maybePlaylist(state.activePlaylist)
        default: nil
        }
    }

    private func metadata(_ state: State) -> BusValue {
        guard let entry = state.entry else { return .dictionary([]) }
        var result = fields(entry, info: state.info)
        if let art = state.artURL { result.append(("mpris:artUrl", .string(art.absoluteString))) }
        return .dictionary(result)
    }

    private func fields(_ entry: QueueEntry, info: TrackInfo?) -> [(String, BusValue)] {
        var fields: [(String, BusValue)] = [("mpris:trackid", .objectPath(Self.trackID(entry)))]
        let tags = info?.tags ?? TrackTags()
        fields.append(("xesam:title", .string(tags.title ?? entry.displayName)))
        if let duration = info?.duration { fields.append(("mpris:length", .int64(Self.microseconds(duration)))) }
        if let artist = tags.artist { fields.append(("xesam:artist", .strings([artist]))) }
        if let album = tags.album { fields.append(("xesam:album", .string(album))) }
        if let albumArtist = tags.albumArtist { fields.append(("xesam:albumArtist", .strings([albumArtist]))) }
        if let number = tags.trackNumber { fields.append(("xesam:trackNumber", .int32(Int32(clamping: number)))) }
        if let genre = tags.genre { fields.append(("xesam:genre", .strings([genre]))) }
        fields.append(("xesam:url", .string(entry.publicURL.absoluteString)))
        return fields
    }
}

import DBus
import Model
import Playback

/// One MPRIS property, described once: where it is, its type, how its changes are announced, how
/// it is read from the state, and — for the writable ones — what a write asks of the player. The
/// vtable, property reads and PropertiesChanged all come from this one list.
struct MPRISProperty: Sendable {
    let interface: String
    let name: String
    let signature: String
    let announcement: BusInterface.Announcement
    let read: @Sendable (MPRISState) -> BusValue
    var write: (@Sendable (BusValue, Player) -> BusOutcome)?

    static let identity = "cloudplayerd"
    static let uriSchemes = ["file", "http", "https"]
    static let mimeTypes = ["audio/mpeg", "audio/mp3", "audio/ogg", "audio/opus"]

    static let all: [MPRISProperty] = [
        // org.mpris.MediaPlayer2
        MPRISProperty(interface: MPRIS.root, name: "CanQuit", signature: "b", announcement: .constant) { _ in .bool(true) },
        MPRISProperty(interface: MPRIS.root, name: "CanRaise", signature: "b", announcement: .constant) { _ in .bool(false) },
        MPRISProperty(interface: MPRIS.root, name: "HasTrackList", signature: "b", announcement: .constant) { _ in .bool(true) },
        MPRISProperty(interface: MPRIS.root, name: "Identity", signature: "s", announcement: .constant) { _ in .string(identity) },
        MPRISProperty(interface: MPRIS.root, name: "DesktopEntry", signature: "s", announcement: .constant) { _ in .string("cloudplayerd") },
        MPRISProperty(interface: MPRIS.root, name: "SupportedUriSchemes", signature: "as", announcement: .constant) { _ in .strings(uriSchemes) },
        MPRISProperty(interface: MPRIS.root, name: "SupportedMimeTypes", signature: "as", announcement: .constant) { _ in .strings(mimeTypes) },

        // org.mpris.MediaPlayer2.Player
        MPRISProperty(interface: MPRIS.player, name: "PlaybackStatus", signature: "s", announcement: .newValue) {
            .string($0.player.status.rawValue)
        },
        MPRISProperty(interface: MPRIS.player, name: "LoopStatus", signature: "s", announcement: .newValue,
                      read: { .string($0.player.queue.loop.rawValue) }) { value, player in
            guard let text = value.text, let mode = LoopMode(rawValue: text) else {
                return .invalidArguments("LoopStatus is None, Track or Playlist, not '\((value.text ?? value.signature).prefix(40))'")
            }
            player.send(.setLoop(mode))
            return .done
        },
        MPRISProperty(interface: MPRIS.player, name: "Rate", signature: "d", announcement: .newValue, read: { _ in .double(1) }) { value, player in
            if value.number == 0 { player.send(.pause) }  // the spec: a rate of 0 pauses; others are clamped to 1.0
            return .done
        },
        MPRISProperty(interface: MPRIS.player, name: "Shuffle", signature: "b", announcement: .newValue,
                      read: { .bool($0.player.queue.shuffle) }) { value, player in
            guard let on = value.flag else { return .invalidArguments("Shuffle is true or false") }
            player.send(.setShuffle(on))
            return .done
        },
        MPRISProperty(interface: MPRIS.player, name: "Metadata", signature: "a{sv}", announcement: .newValue) { $0.currentMetadata.busValue },
        MPRISProperty(interface: MPRIS.player, name: "Volume", signature: "d", announcement: .newValue,
                      read: { .double($0.player.volume) }) { value, player in
            guard let volume = value.number, volume.isFinite else { return .invalidArguments("Volume must be a number") }
            player.send(.setVolume(max(0, volume)))
            return .done
        },
        // Never announced, by the spec: clients interpolate, and hear Seeked after a jump.
        MPRISProperty(interface: MPRIS.player, name: "Position", signature: "x", announcement: .none) {
            .int64(MPRIS.microseconds($0.player.seconds()))
        },
        MPRISProperty(interface: MPRIS.player, name: "MinimumRate", signature: "d", announcement: .newValue) { _ in .double(1) },
        MPRISProperty(interface: MPRIS.player, name: "MaximumRate", signature: "d", announcement: .newValue) { _ in .double(1) },
        MPRISProperty(interface: MPRIS.player, name: "CanGoNext", signature: "b", announcement: .newValue) { .bool($0.player.queue.hasNext) },
        MPRISProperty(interface: MPRIS.player, name: "CanGoPrevious", signature: "b", announcement: .newValue) { .bool($0.player.current != nil) },
        // With tracks queued and none current, Play starts the first: playing is possible.
        MPRISProperty(interface: MPRIS.player, name: "CanPlay", signature: "b", announcement: .newValue) { .bool($0.canPlay) },
        MPRISProperty(interface: MPRIS.player, name: "CanPause", signature: "b", announcement: .newValue) { .bool($0.canPlay) },
        MPRISProperty(interface: MPRIS.player, name: "CanSeek", signature: "b", announcement: .newValue) {
            .bool($0.player.current != nil && $0.player.currentInfo?.totalFrames != nil)
        },
        MPRISProperty(interface: MPRIS.player, name: "CanControl", signature: "b", announcement: .constant) { _ in .bool(true) },

        // org.mpris.MediaPlayer2.TrackList
        MPRISProperty(interface: MPRIS.trackList, name: "Tracks", signature: "ao", announcement: .invalidation) {
            .objectPaths($0.player.queue.entries.map(MPRISState.trackID))
        },
        MPRISProperty(interface: MPRIS.trackList, name: "CanEditTracks", signature: "b", announcement: .constant) { _ in .bool(true) },

        // org.mpris.MediaPlayer2.Playlists
        MPRISProperty(interface: MPRIS.playlists, name: "PlaylistCount", signature: "u", announcement: .newValue) {
            .uint32(UInt32(clamping: $0.playlists.count))
        },
        MPRISProperty(interface: MPRIS.playlists, name: "Orderings", signature: "as", announcement: .newValue) { _ in .strings(["Alphabetical"]) },
        MPRISProperty(interface: MPRIS.playlists, name: "ActivePlaylist", signature: "(b(oss))", announcement: .newValue) {
            MPRISPlaylist.maybe($0.activePlaylist)
        },
    ]

    init(interface: String, name: String, signature: String, announcement: BusInterface.Announcement,
         read: @escaping @Sendable (MPRISState) -> BusValue, write: (@Sendable (BusValue, Player) -> BusOutcome)? = nil) {
        self.interface = interface
        self.name = name
        self.signature = signature
        self.announcement = announcement
        self.read = read
        self.write = write
    }

    /// Per interface, the announced properties whose values differ between two states.
    static func changes(from before: MPRISState, to after: MPRISState) -> [String: [String]] {
        var changed: [String: [String]] = [:]
        for property in all where property.announcement == .newValue || property.announcement == .invalidation {
            if property.read(before) != property.read(after) { changed[property.interface, default: []].append(property.name) }
        }
        return changed
    }
}

extension MPRISState {
    /// With a current track, or tracks queued (Play starts the first), playing is possible.
    var canPlay: Bool {
        player.current != nil || !player.queue.entries.isEmpty
    }
}

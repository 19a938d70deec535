import Base
import DBus
import Model
import Playback

/// One MPRIS property, described once: where it is, its type (that of what `read` returns), how
/// its changes are announced, how it is read from the state, and — for the writable ones — what a
/// write asks of the player. The vtable, property reads and PropertiesChanged all come from this
/// one list.
struct MPRISProperty: Sendable {
    let interface: String
    let name: String
    let announcement: BusInterface.Announcement
    /// Its value in a state, as it travels (or what stands for it: `compared`): what `changes` compares.
    let value: @Sendable (MPRISState) -> BusValue
    /// Adds it, typed, to its interface: read from the state, written with commands to the player.
    private let publish: @Sendable (BusInterface, Locked<MPRISState>, Player) -> Void

    static let identity = "cloudplayerd"
    static let mimeTypes = ["audio/mpeg", "audio/mp3", "audio/ogg", "audio/opus", "audio/flac", "audio/x-flac", "audio/vorbis", "audio/x-vorbis+ogg",
                            "audio/wav", "audio/x-wav", "audio/aiff", "audio/x-aiff",
                            "audio/mp4", "audio/x-m4a", "audio/aac", "audio/x-m4b"]

    static let all: [MPRISProperty] = [
        // org.mpris.MediaPlayer2
        MPRISProperty(interface: MPRIS.root, name: "CanQuit", announcement: .constant) { _ in true },
        MPRISProperty(interface: MPRIS.root, name: "CanRaise", announcement: .constant) { _ in false },
        MPRISProperty(interface: MPRIS.root, name: "HasTrackList", announcement: .constant) { _ in true },
        MPRISProperty(interface: MPRIS.root, name: "Identity", announcement: .constant) { _ in identity },
        MPRISProperty(interface: MPRIS.root, name: "DesktopEntry", announcement: .constant) { _ in "cloudplayerd" },
        MPRISProperty(interface: MPRIS.root, name: "SupportedUriSchemes", announcement: .constant) { _ in QueueIntake.schemes },
        MPRISProperty(interface: MPRIS.root, name: "SupportedMimeTypes", announcement: .constant) { _ in mimeTypes },

        // org.mpris.MediaPlayer2.Player
        // A station waiting for its server to come back shows as paused, as it sounds.
        MPRISProperty(interface: MPRIS.player, name: "PlaybackStatus", announcement: .newValue) {
            $0.player.status == .playing && $0.player.streamStalled ? PlaybackStatus.paused.rawValue : $0.player.status.rawValue
        },
        MPRISProperty(interface: MPRIS.player, name: "LoopStatus", announcement: .newValue,
                      read: { $0.player.queue.loop.rawValue }) { text, player in
            guard let mode = LoopMode(rawValue: text) else {
                throw BusCallError.invalidArguments("LoopStatus is None, Track or Playlist, not '\(text.prefix(40))'")
            }
            player.send(.setLoop(mode))
        },
        // The speed of the track heard, its pitch kept; the spec: a rate of 0 pauses, and clients
        // should not ask for one outside Minimum and MaximumRate (one that does is clamped to them).
        MPRISProperty(interface: MPRIS.player, name: "Rate", announcement: .newValue, read: { $0.player.position.rate }) { rate, player in
            guard rate.isFinite, rate >= 0 else { throw BusCallError.invalidArguments("Rate must be a number of 0 or more") }
            player.send(rate == 0 ? .pause : .setSpeed(rate))
        },
        MPRISProperty(interface: MPRIS.player, name: "Shuffle", announcement: .newValue,
                      read: { $0.player.queue.shuffle }) { on, player in
            player.send(.setShuffle(on))
        },
        MPRISProperty(interface: MPRIS.player, name: "Metadata", announcement: .newValue) { $0.currentMetadata },
        MPRISProperty(interface: MPRIS.player, name: "Volume", announcement: .newValue,
                      read: { $0.player.volume }) { volume, player in
            guard volume.isFinite else { throw BusCallError.invalidArguments("Volume must be a number") }
            player.send(.setVolume(max(0, volume)))
        },
        // Never announced, by the spec: clients interpolate, and hear Seeked after a jump.
        MPRISProperty(interface: MPRIS.player, name: "Position", announcement: .none) { MPRIS.microseconds($0.player.seconds()) },
        MPRISProperty(interface: MPRIS.player, name: "MinimumRate", announcement: .newValue) { _ in PlaybackSettings.speeds.lowerBound },
        MPRISProperty(interface: MPRIS.player, name: "MaximumRate", announcement: .newValue) { _ in PlaybackSettings.speeds.upperBound },
        MPRISProperty(interface: MPRIS.player, name: "CanGoNext", announcement: .newValue) { $0.player.queue.hasNext },
        MPRISProperty(interface: MPRIS.player, name: "CanGoPrevious", announcement: .newValue) { $0.player.current != nil },
        // With tracks queued and none current, Play starts the first: playing is possible.
        MPRISProperty(interface: MPRIS.player, name: "CanPlay", announcement: .newValue) { $0.canPlay },
        MPRISProperty(interface: MPRIS.player, name: "CanPause", announcement: .newValue) { $0.canPlay },
        MPRISProperty(interface: MPRIS.player, name: "CanSeek", announcement: .newValue) {
            $0.player.current != nil && $0.player.currentInfo?.totalFrames != nil
        },
        MPRISProperty(interface: MPRIS.player, name: "CanControl", announcement: .constant) { _ in true },

        // org.mpris.MediaPlayer2.TrackList
        // Compared by the queue's revision: a change of a queue of 20,000 is not found by
        // comparing 20,000 paths twice.
        MPRISProperty(interface: MPRIS.trackList, name: "Tracks", announcement: .invalidation,
                      read: { $0.player.queue.entries.map { BusObjectPath(MPRISState.trackID($0)) } },
                      compared: { $0.player.queue.revision }),
        MPRISProperty(interface: MPRIS.trackList, name: "CanEditTracks", announcement: .constant) { _ in true },

        // org.mpris.MediaPlayer2.Playlists
        MPRISProperty(interface: MPRIS.playlists, name: "PlaylistCount", announcement: .newValue) {
            UInt32(clamping: $0.playlists.count)
        },
        MPRISProperty(interface: MPRIS.playlists, name: "Orderings", announcement: .newValue) { _ in ["Alphabetical"] },
        MPRISProperty(interface: MPRIS.playlists, name: "ActivePlaylist", announcement: .newValue) {
            MPRISPlaylist.Maybe($0.activePlaylist)
        },
    ]

    /// `compared`: what tells two states' values apart where reading them whole costs (default:
    /// the value read).
    init<T: BusType>(interface: String, name: String, announcement: BusInterface.Announcement,
                     read: @escaping @Sendable (MPRISState) -> T, write: (@Sendable (T, Player) throws -> Void)? = nil,
                     compared: (@Sendable (MPRISState) -> UInt64)? = nil) {
        self.interface = interface
        self.name = name
        self.announcement = announcement
        if let compared {
            value = { compared($0).busValue }
        } else {
            value = { read($0).busValue }
        }
        publish = { busInterface, state, player in
            busInterface.property(name, announcement, read: { read(state.withLock { $0 }) },
                                  write: write.map { write in { try write($0, player) } })
        }
    }

    /// Adds it to `interface` (its own), read from `state`, written with commands to `player`.
    func add(to interface: BusInterface, state: Locked<MPRISState>, player: Player) {
        publish(interface, state, player)
    }

    /// Per interface, the announced properties whose values differ between two states.
    static func changes(from before: MPRISState, to after: MPRISState) -> [String: [String]] {
        var changed: [String: [String]] = [:]
        for property in all where property.announcement == .newValue || property.announcement == .invalidation {
            if property.value(before) != property.value(after) { changed[property.interface, default: []].append(property.name) }
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

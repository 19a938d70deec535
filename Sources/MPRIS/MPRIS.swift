import DBus

/// MPRIS 2.2's names and members, as the spec gives them (specifications.freedesktop.org/mpris-spec):
/// the methods and signals of the four interfaces we publish, described once.
package enum MPRIS {
    package static let path = "/org/mpris/MediaPlayer2"
    package static let root = "org.mpris.MediaPlayer2"
    package static let player = "org.mpris.MediaPlayer2.Player"
    package static let trackList = "org.mpris.MediaPlayer2.TrackList"
    package static let playlists = "org.mpris.MediaPlayer2.Playlists"
    /// The track id that means "no track" (AddTrack at the start, TrackAdded at the start).
    package static let noTrack = "/org/mpris/MediaPlayer2/TrackList/NoTrack"

    static let raise = BusMethod<BusNothing>("Raise")
    static let quit = BusMethod<BusNothing>("Quit")

    static let next = BusMethod<BusNothing>("Next")
    static let previous = BusMethod<BusNothing>("Previous")
    static let pause = BusMethod<BusNothing>("Pause")
    static let playPause = BusMethod<BusNothing>("PlayPause")
    static let stop = BusMethod<BusNothing>("Stop")
    static let play = BusMethod<BusNothing>("Play")
    static let seek = BusMethod<Int64, BusNothing>("Seek", arguments: ["Offset"])
    static let setPosition = BusMethod<BusObjectPath, Int64, BusNothing>("SetPosition", arguments: ["TrackId", "Position"])
    static let openURI = BusMethod<String, BusNothing>("OpenUri", arguments: ["Uri"])
    static let seeked = BusSignalDescription<Int64>("Seeked", arguments: ["Position"])

    static let getTracksMetadata = BusMethod<[BusObjectPath], [BusFields]>("GetTracksMetadata", arguments: ["TrackIds"],
                                                                           answer: "Metadata")
    static let addTrack = BusMethod<String, BusObjectPath, Bool, BusNothing>("AddTrack",
                                                                            arguments: ["Uri", "AfterTrack", "SetAsCurrent"])
    static let removeTrack = BusMethod<BusObjectPath, BusNothing>("RemoveTrack", arguments: ["TrackId"])
    static let goTo = BusMethod<BusObjectPath, BusNothing>("GoTo", arguments: ["TrackId"])
    static let trackListReplaced = BusSignalDescription<[BusObjectPath], BusObjectPath>("TrackListReplaced",
                                                                                        arguments: ["Tracks", "CurrentTrack"])
    static let trackAdded = BusSignalDescription<BusFields, BusObjectPath>("TrackAdded", arguments: ["Metadata", "AfterTrack"])
    static let trackRemoved = BusSignalDescription<BusObjectPath>("TrackRemoved", arguments: ["TrackId"])
    static let trackMetadataChanged = BusSignalDescription<BusObjectPath, BusFields>("TrackMetadataChanged",
                                                                                    arguments: ["TrackId", "Metadata"])

    static let activatePlaylist = BusMethod<BusObjectPath, BusNothing>("ActivatePlaylist", arguments: ["PlaylistId"])
    static let getPlaylists = BusMethod<UInt32, UInt32, String, Bool, [MPRISPlaylist]>(
        "GetPlaylists", arguments: ["Index", "MaxCount", "Order", "ReverseOrder"], answer: "Playlists")
    static let playlistChanged = BusSignalDescription<MPRISPlaylist>("PlaylistChanged", arguments: ["Playlist"])

    /// Seconds as MPRIS's microseconds, clamped: a file may claim any length, and a trap on the
    /// bus thread would take the daemon down.
    static func microseconds(_ seconds: Double) -> Int64 {
        let value = (seconds * 1e6).rounded()
        guard value > 0 else { return 0 }  // also NaN
        return value >= Double(Int64.max) ? Int64.max : Int64(value)
    }
}

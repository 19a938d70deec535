import DBus

/// `org.cloudplayerd.Manager1`: the library, the queue, playlists, the cache and the ordinary controls, for
/// `cloudplayerctl`. Each method is described once, typed, here; the daemon carries them out
/// with these descriptions, `cloudplayerctl` calls them with them, and a test checks them against
/// `dbus/org.cloudplayerd.Manager1.xml`. It lives on the daemon's MPRIS bus name.
package enum Manager1 {
    package static let path = "/org/cloudplayerd/Manager1"
    package static let interface = "org.cloudplayerd.Manager1"
    /// Errors the daemon answers with are named under this prefix.
    package static let errorPrefix = "org.cloudplayerd.Error."

    /// The daemon's well-known name: `org.mpris.MediaPlayer2.cloudplayerd`, or with
    /// `.instanceNAME` appended for a second instance, as the MPRIS spec names them.
    package static func busName(instance: String?) -> String {
        "org.mpris.MediaPlayer2.cloudplayerd" + (instance.map { ".instance\($0)" } ?? "")
    }

    /// Whether `instance` can stand in a bus name element.
    package static func isValidInstance(_ instance: String) -> Bool {
        !instance.isEmpty && instance.count <= 64
            && instance.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_") }
    }

    package static let status = BusMethod<Status>("Status", answer: "Status")
    package static let scan = BusMethod<[String], BusNothing>("Scan", arguments: ["Sources"])
    package static let scanStatus = BusMethod<ScanStatus>("ScanStatus", answer: "Progress")
    package static let listTracks = BusMethod<String, String, String, String, UInt32, UInt32, [Track]>(
        "ListTracks", arguments: ["Artist", "Album", "Title", "Source", "Offset", "Limit"], answer: "Tracks")
    package static let search = BusMethod<String, UInt32, [Track]>("Search", arguments: ["Query", "Limit"], answer: "Tracks")
    package static let queueAdd = BusMethod<[String], Bool, UInt32>("QueueAdd", arguments: ["Tracks", "Play"], answer: "Added")
    package static let queueList = BusMethod<[QueuedTrack]>("QueueList", answer: "Entries")
    package static let queueClear = BusMethod<BusNothing>("QueueClear")
    package static let queuePlay = BusMethod<UInt32, BusNothing>("QueuePlay", arguments: ["Index"])
    package static let playlistList = BusMethod<[Playlist]>("PlaylistList", answer: "Playlists")
    package static let playlistShow = BusMethod<String, [Track]>("PlaylistShow", arguments: ["Playlist"], answer: "Tracks")
    package static let playlistCreate = BusMethod<String, Int64>("PlaylistCreate", arguments: ["Name"], answer: "Id")
    package static let playlistDelete = BusMethod<String, BusNothing>("PlaylistDelete", arguments: ["Playlist"])
    package static let playlistAdd = BusMethod<String, [String], BusNothing>("PlaylistAdd", arguments: ["Playlist", "Tracks"])
    package static let playlistRemove = BusMethod<String, [String], UInt32>("PlaylistRemove", arguments: ["Playlist", "Tracks"],
                                                                          answer: "Removed")
    package static let playlistPlay = BusMethod<String, BusNothing>("PlaylistPlay", arguments: ["Playlist"])
    package static let sources = BusMethod<[Source]>("Sources", answer: "Sources")
    package static let cacheStats = BusMethod<CacheStats>("CacheStats", answer: "Stats")
    package static let cacheShow = BusMethod<String, CachedRanges>("CacheShow", arguments: ["Track"], answer: "Ranges")
    package static let cachePin = BusMethod<String, BusNothing>("CachePin", arguments: ["Playlist"])
    package static let cacheUnpin = BusMethod<String, BusNothing>("CacheUnpin", arguments: ["Playlist"])
    package static let cacheClear = BusMethod<Int64>("CacheClear", answer: "Freed")
    package static let reload = BusMethod<BusNothing>("Reload")
    package static let control = BusMethod<String, Double, BusNothing>("Control", arguments: ["Command", "Value"])
    package static let mark = BusMethod<Bool, [String], BusNothing>("Mark", arguments: ["Played", "Tracks"])
    package static let scanFinished = BusSignalDescription<[ScanReport]>("ScanFinished", arguments: ["Reports"])
}

/// `org.cloudplayerd.Manager1`, as both ends know it: the daemon publishes it, `cloudplayerctl`
/// calls it. It lives on the daemon's MPRIS bus name.
package enum Manager1Interface {
    package static let path = "/org/cloudplayerd/Manager1"
    package static let name = "org.cloudplayerd.Manager1"
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

    /// Every method: name, argument signature, result signature, argument names (in, then out).
    package static let methods: [(name: String, signature: String, result: String, names: [String])] = [
        ("Status", "", "a{sv}", ["Status"]),
        ("Scan", "as", "", ["Sources"]),
        ("ScanStatus", "", "a{sv}", ["Progress"]),
        ("ListTracks", "ssssuu", "aa{sv}", ["Artist", "Album", "Title", "Source", "Offset", "Limit", "Tracks"]),
        ("Search", "su", "aa{sv}", ["Query", "Limit", "Tracks"]),
        ("QueueAdd", "asb", "u", ["Tracks", "Play", "Added"]),
        ("QueueList", "", "aa{sv}", ["Entries"]),
        ("QueueClear", "", "", []),
        ("QueuePlay", "u", "", ["Index"]),
        ("PlaylistList", "", "aa{sv}", ["Playlists"]),
        ("PlaylistShow", "s", "aa{sv}", ["Playlist", "Tracks"]),
        ("PlaylistCreate", "s", "x", ["Name", "Id"]),
        ("PlaylistDelete", "s", "", ["Playlist"]),
        ("PlaylistAdd", "sas", "", ["Playlist", "Tracks"]),
        ("PlaylistRemove", "sas", "u", ["Playlist", "Tracks", "Removed"]),
        ("PlaylistPlay", "s", "", ["Playlist"]),
        ("Sources", "", "aa{sv}", ["Sources"]),
        ("CacheStats", "", "a{sv}", ["Stats"]),
        ("CacheShow", "s", "a{sv}", ["Track", "Ranges"]),
        ("CachePin", "s", "", ["Playlist"]),
        ("CacheUnpin", "s", "", ["Playlist"]),
        ("CacheClear", "", "x", ["Freed"]),
        ("Reload", "", "", []),
    ]
}

import Model

/// What a key of a Subsonic source names: `song/ID`, `album/ID`, `playlist/ID` — the server's
/// ids, stable across scans and free of credentials; the root is the empty key. A song as a
/// transcode is `stream/FORMAT/ID` (`opus-128`): other bytes than the file's, so another location
/// and another cache entry.
enum SubsonicKey: Equatable {
    case root
    case song(String)
    /// A song transcoded to `format` (`opus`, or with a bit rate: `opus-128`).
    case stream(String, format: String)
    case album(String)
    case playlist(String)

    init?(_ key: String) {
        if key.isEmpty || key == "/" {
            self = .root
            return
        }
        guard let slash = key.firstIndex(of: "/") else { return nil }
        let id = String(key[key.index(after: slash)...])
        guard !id.isEmpty else { return nil }
        switch key[..<slash] {
        case "song": self = .song(id)
        case "stream":
            guard let next = id.firstIndex(of: "/"), next != id.startIndex, id.index(after: next) != id.endIndex else { return nil }
            self = .stream(String(id[id.index(after: next)...]), format: String(id[..<next]))
        case "album": self = .album(id)
        case "playlist": self = .playlist(id)
        default: return nil
        }
    }

    var key: String {
        switch self {
        case .root: ""
        case .song(let id): "song/\(id)"
        case .stream(let id, let format): "stream/\(format)/\(id)"
        case .album(let id): "album/\(id)"
        case .playlist(let id): "playlist/\(id)"
        }
    }

    func location(in source: String) -> TrackLocation {
        TrackLocation(source: source, key: key)
    }
}

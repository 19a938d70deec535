import Model

/// What a key of a Subsonic source names: `song/ID`, `album/ID`, `playlist/ID` — the server's
/// ids, stable across scans and free of credentials; the root is the empty key.
enum SubsonicKey: Equatable {
    case root
    case song(String)
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
        case "album": self = .album(id)
        case "playlist": self = .playlist(id)
        default: return nil
        }
    }

    var key: String {
        switch self {
        case .root: ""
        case .song(let id): "song/\(id)"
        case .album(let id): "album/\(id)"
        case .playlist(let id): "playlist/\(id)"
        }
    }

    func location(in source: String) -> TrackLocation {
        TrackLocation(source: source, key: key)
    }
}

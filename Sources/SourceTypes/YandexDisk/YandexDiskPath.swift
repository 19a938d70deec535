import Model

/// A path on the disk as a key of the source: `/Music/a.mp3` (or `disk:/Music/a.mp3`, as the
/// API writes it) is the key `Music/a.mp3`, the disk's root the empty key. Names on the disk
/// hold no `/`, so a key is the path as it is.
enum YandexDiskPath {
    /// The path the API is asked about for a key.
    static func path(ofKey key: String) -> String {
        "/" + key
    }

    /// The key of a path the API wrote.
    static func key(of path: String) -> String {
        var path = Substring(path)
        if path.hasPrefix("disk:") { path = path.dropFirst(5) }
        while path.hasPrefix("/") { path = path.dropFirst() }
        return String(path)
    }

    static func location(of path: String, in source: String) -> TrackLocation {
        TrackLocation(source: source, key: key(of: path))
    }
}

import Model

/// A path in a Dropbox as a key of the source: `/Music/a.mp3` is the key `Music/a.mp3`, the
/// Dropbox's root (which the API names `""`, not `/`) the empty key.
enum DropboxPath {
    /// The path the API is asked about for a key.
    static func path(ofKey key: String) -> String {
        key.isEmpty ? "" : "/" + key
    }

    /// The key of a path.
    static func key(of path: String) -> String {
        String(path.drop { $0 == "/" })
    }

    /// The key of `name` in the folder of key `folder`.
    static func key(of name: String, in folder: String) -> String {
        folder.isEmpty ? name : folder + "/" + name
    }
}

/// A path in a cloud account as a key of its source: `/Music/a.mp3` is the key `Music/a.mp3`, the
/// folder scanned from the empty key. Names in these clouds hold no `/`, so a key is the path as
/// it is. Box's, OneDrive's (`OneDrivePath`) and Google Drive's (`GoogleDrivePath`), each
/// provider's own addressing in an extension beside its source.
enum CloudPath {
    /// The path shown in messages.
    static func path(ofKey key: String) -> String {
        "/" + key
    }

    static func key(ofPath path: String) -> String {
        String(path.drop { $0 == "/" })
    }

    /// The key of `name` in the folder of key `folder`.
    static func key(of name: String, in folder: String) -> String {
        folder.isEmpty ? name : folder + "/" + name
    }

    /// Whether `name` can be a name in a path: not empty, no `/`, not `.` or `..`.
    static func isNameable(_ name: String) -> Bool {
        !name.isEmpty && !name.contains("/") && name != "." && name != ".."
    }
}

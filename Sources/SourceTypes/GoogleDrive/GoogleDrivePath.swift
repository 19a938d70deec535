import FoundationEssentials

/// A path in the drive as a key of the source (`CloudPath`): `/Music/a.mp3` is the key
/// `Music/a.mp3`, the folder scanned from (My Drive, or `folder_id`'s) the empty key. Drive finds
/// files by id, not by path: a key is turned into an id name by name (`CloudItemIDs`), each name
/// looked up in its folder with a `files.list` query. https://developers.google.com/drive/api/guides/search-files
typealias GoogleDrivePath = CloudPath

extension CloudPath {
    /// The keys of the folders holding `key`, nearest last (`Music`, `Music/A` for `Music/A/b.mp3`),
    /// the empty key first.
    static func ancestors(of key: String) -> [String] {
        let names = key.split(separator: "/").map(String.init)
        return (0..<names.count).map { names[0..<$0].joined(separator: "/") }
    }

    /// A string literal of Drive's query language: in single quotes, `'` and `\` escaped with `\`.
    /// https://developers.google.com/drive/api/guides/ref-search-terms
    static func literal(_ text: String) -> String {
        "'" + text.replacing("\\", with: "\\\\").replacing("'", with: "\\'") + "'"
    }
}

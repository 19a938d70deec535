import FoundationEssentials
import Model

/// A path in the drive as a key of the source (`CloudPath`): `/Music/a.mp3` is the key
/// `Music/a.mp3`, the drive's root the empty key. Graph is asked about it as
/// `root:/Music/a%20b.mp3:` (each name percent-encoded).
/// https://learn.microsoft.com/graph/onedrive-addressing-driveitems
typealias OneDrivePath = CloudPath

extension CloudPath {
    /// Graph's address of a key: `me/drive/root` for the root, else `me/drive/root:/A/B`;
    /// `suffix` (`/children`) after a colon that ends the path.
    static func address(ofKey key: String, then suffix: String = "") -> String {
        guard !key.isEmpty else { return "me/drive/root" + suffix }
        let names = key.split(separator: "/").map { PercentEncoding.encoded($0, keeping: PercentEncoding.unreserved) }
        return "me/drive/root:/" + names.joined(separator: "/") + (suffix.isEmpty ? "" : ":" + suffix)
    }
}

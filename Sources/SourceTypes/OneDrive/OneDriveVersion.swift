import OneDriveAnswers
import Parsers

/// A file's version as the cache keys it: its `sha256Hash`, else its `quickXorHash` or
/// `sha1Hash` (what the drive's kind offers), else its `cTag` — the content tag, which changes
/// with the bytes; never `eTag`, which a rename changes too. The length is compared beside it. A
/// new upload of the same path is a new tag, so its bytes are never mixed with the old one's; a
/// new download URL of the same file is the same tag.
/// https://learn.microsoft.com/graph/api/resources/hashes
enum OneDriveVersion {
    static func tag(of item: OneDriveItem) -> String? {
        let hashes = item.file?.hashes
        let candidates = [("sha256", hashes?.sha256Hash), ("qxh", hashes?.quickXorHash), ("sha1", hashes?.sha1Hash), ("ctag", item.cTag)]
        for case let (kind, value?) in candidates {
            // Printable ASCII without quotes or backslashes: an entity tag's characters.
            let text = value.filter { $0.isASCII && $0 != "\"" && $0 != "\\" && !$0.isWhitespace && !$0.isNewline }
            if !text.isEmpty, text.count == value.count || kind == "ctag" { return "\"\(kind)-\(text)\"" }
        }
        return nil
    }
}

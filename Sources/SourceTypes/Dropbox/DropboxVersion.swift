import DropboxAnswers
import Parsers

/// A file's version as the cache keys it: its `content_hash` (which changes with the bytes and
/// only with them), else its `rev`, as an entity tag (the length is compared beside it). A new
/// upload of other bytes is a new tag, so they are never mixed with the old ones.
enum DropboxVersion {
    static func tag(of entry: DropboxEntry) -> String? {
        guard let version = entry.contentHash ?? entry.rev, !version.isEmpty,
              version.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else { return nil }
        return "\"" + version.lowercased() + "\""
    }
}

import Parsers
import YandexDiskAnswers

/// A file's version as the cache keys it: its `sha256`, else its `md5`, as an entity tag (the
/// length is compared beside it). A new upload of the same path is a new tag, so its bytes are
/// never mixed with the old one's; a new download link of the same file is the same tag.
enum YandexDiskVersion {
    static func tag(of resource: YandexDiskResource) -> String? {
        guard let hash = resource.sha256 ?? resource.md5, !hash.isEmpty,
              hash.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else { return nil }
        return "\"" + hash.lowercased() + "\""
    }
}

import BoxAnswers

/// A file's version as the cache keys it: its `sha1` with its `file_version.id` — a new upload of
/// the same file is a new version (a new id, and new bytes a new SHA-1), so its bytes are never
/// mixed with the old one's; a rename changes neither. A file without a SHA-1 falls back on its
/// version id alone. https://developer.box.com/reference/resources/file
enum BoxVersion {
    static func tag(of file: BoxItem) -> String? {
        let version = file.fileVersion?.id.filter { $0.isASCII && ($0.isLetter || $0.isNumber) } ?? ""
        let suffix = version.isEmpty ? "" : "-v\(version)"
        if let sha1 = file.sha1, sha1.count == 40, sha1.allSatisfy({ $0.isASCII && $0.isHexDigit }) {
            return "\"sha1-\(sha1.lowercased())\(suffix)\""
        }
        return version.isEmpty ? nil : "\"version\(suffix)\""
    }
}

import GoogleDriveAnswers
import Parsers

/// A file's version as the cache keys it: its `md5Checksum` with its `size` — never `version`,
/// which a rename or a star changes too. A file without an MD5 (Drive keeps one for every file
/// with bytes, but an answer may lack it) falls back on its `modifiedTime`. A new revision of the
/// same file is a new tag, so its bytes are never mixed with the old one's.
/// https://developers.google.com/drive/api/reference/rest/v3/files
enum GoogleDriveVersion {
    static func tag(of file: GoogleDriveFile) -> String? {
        let size = file.size.map { "-\($0)" } ?? ""
        if let md5 = file.md5Checksum, !md5.isEmpty, md5.allSatisfy({ $0.isASCII && $0.isHexDigit }) {
            return "\"md5-\(md5.lowercased())\(size)\""
        }
        if let time = file.modifiedTime, !time.isEmpty, time.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-:.".contains($0)) }) {
            return "\"mtime-\(time)\(size)\""
        }
        return nil
    }
}

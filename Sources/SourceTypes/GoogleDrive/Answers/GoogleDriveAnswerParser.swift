import Parsers

/// Reads Drive API v3's JSON answers. What is not the documented shape (a proxy's page, cut-off
/// JSON, a file without an id, a size that is no number) is a `ParseError`, never a crash.
package enum GoogleDriveAnswerParser {
    package static func list(_ bytes: [UInt8]) throws -> GoogleDriveFileList {
        try JSONAnswer.decode(GoogleDriveFileList.self, bytes, expected: "a file list as Drive documents it")
    }

    package static func file(_ bytes: [UInt8]) throws -> GoogleDriveFile {
        try JSONAnswer.decode(GoogleDriveFile.self, bytes, expected: "a file resource as Drive documents it")
    }

    /// An error body, if the answer is one.
    package static func fault(_ bytes: [UInt8]) -> GoogleDriveFault? {
        try? JSONAnswer.decode(GoogleDriveFault.self, bytes, expected: "an error")
    }
}

import FoundationEssentials
import Parsers

/// Reads the Dropbox API's JSON answers. An answer that is not the documented shape (a proxy's
/// page, cut-off JSON, an entry without a `.tag`) is a `ParseError`, never a crash.
package enum DropboxAnswerParser {
    package static func listing(_ bytes: [UInt8]) throws -> DropboxListing {
        try JSONAnswer.decode(DropboxListing.self, bytes, expected: "a folder listing as the API documents it")
    }

    package static func entry(_ bytes: [UInt8]) throws -> DropboxEntry {
        try JSONAnswer.decode(DropboxEntry.self, bytes, expected: "a file's metadata as the API documents it")
    }

    /// An error body, if the answer is one.
    package static func fault(_ bytes: [UInt8]) -> DropboxFault? {
        try? JSONDecoder().decode(DropboxFault.self, from: Data(bytes))
    }
}

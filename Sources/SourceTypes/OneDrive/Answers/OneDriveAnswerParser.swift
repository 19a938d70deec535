import FoundationEssentials
import Parsers

/// Reads Microsoft Graph's JSON answers about a drive. An answer that is not the documented shape
/// (a proxy's page, cut-off JSON, an item without an id) is a `ParseError`, never a crash.
package enum OneDriveAnswerParser {
    package static func item(_ bytes: [UInt8]) throws -> OneDriveItem {
        try decode(OneDriveItem.self, bytes, "a driveItem")
    }

    package static func page(_ bytes: [UInt8]) throws -> OneDrivePage {
        try decode(OneDrivePage.self, bytes, "a page of children")
    }

    /// An error body, if the answer is one.
    package static func fault(_ bytes: [UInt8]) -> OneDriveFault? {
        try? JSONDecoder().decode(OneDriveFault.self, from: Data(bytes))
    }

    private static func decode<T: Decodable>(_ type: T.Type, _ bytes: [UInt8], _ what: String) throws -> T {
        do {
            return try JSONDecoder().decode(type, from: Data(bytes))
        } catch {
            throw ParseError.malformed("JSON that is not \(what) as Graph documents it")
        }
    }
}

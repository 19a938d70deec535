import Foundation

/// Reads the Yandex.Disk API's JSON answers. An answer that is not the documented shape (a proxy's
/// page, cut-off JSON, a file without a type) is a `ParseError`, never a crash.
package enum YandexDiskAnswerParser {
    package static func resource(_ bytes: [UInt8]) throws -> YandexDiskResource {
        try decode(YandexDiskResource.self, bytes, "a resource")
    }

    package static func link(_ bytes: [UInt8]) throws -> YandexDiskLink {
        let link = try decode(YandexDiskLink.self, bytes, "a download link")
        guard link.templated != true, (link.method ?? "GET").uppercased() == "GET",
              let url = URL(string: link.href), ["http", "https"].contains(url.scheme?.lowercased() ?? "") else {
            throw ParseError.unsupported("a download link that is no plain GET of an http(s) URL")
        }
        return link
    }

    /// An error body, if the answer is one.
    package static func fault(_ bytes: [UInt8]) -> YandexDiskFault? {
        try? JSONDecoder().decode(YandexDiskFault.self, from: Data(bytes))
    }

    private static func decode<T: Decodable>(_ type: T.Type, _ bytes: [UInt8], _ what: String) throws -> T {
        do {
            return try JSONDecoder().decode(type, from: Data(bytes))
        } catch {
            throw ParseError.malformed("JSON that is not \(what) as the API documents it")
        }
    }
}

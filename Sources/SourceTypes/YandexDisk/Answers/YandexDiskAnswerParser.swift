import FoundationEssentials
import Parsers

/// Reads the Yandex.Disk API's JSON answers. An answer that is not the documented shape (a proxy's
/// page, cut-off JSON, a file without a type) is a `ParseError`, never a crash.
package enum YandexDiskAnswerParser {
    package static func resource(_ bytes: [UInt8]) throws -> YandexDiskResource {
        try JSONAnswer.decode(YandexDiskResource.self, bytes, expected: "a resource as the API documents it")
    }

    package static func link(_ bytes: [UInt8]) throws -> YandexDiskLink {
        let link = try JSONAnswer.decode(YandexDiskLink.self, bytes, expected: "a download link as the API documents it")
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
}

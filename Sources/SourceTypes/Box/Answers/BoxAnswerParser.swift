import Parsers

/// Reads Box's JSON answers. What is not the documented shape (a proxy's page, cut-off JSON, an
/// item without an id, a size that is no number) is a `ParseError`, never a crash.
package enum BoxAnswerParser {
    package static func page(_ bytes: [UInt8]) throws -> BoxItemPage {
        try JSONAnswer.decode(BoxItemPage.self, bytes, expected: "a page of folder items as Box documents it", snakeCase: true)
    }

    package static func item(_ bytes: [UInt8]) throws -> BoxItem {
        try JSONAnswer.decode(BoxItem.self, bytes, expected: "a file as Box documents it", snakeCase: true)
    }

    /// An error body, if the answer is one.
    package static func fault(_ bytes: [UInt8]) -> BoxFault? {
        try? JSONAnswer.decode(BoxFault.self, bytes, expected: "an error", snakeCase: true)
    }
}

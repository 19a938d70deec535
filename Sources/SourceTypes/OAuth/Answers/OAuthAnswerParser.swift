import Parsers

/// Reads an OAuth endpoint's JSON answers; what is not the RFC's shape is a `ParseError`.
package enum OAuthAnswerParser {
    package static func token(_ bytes: [UInt8]) throws -> OAuthTokenAnswer {
        try JSONAnswer.decode(OAuthTokenAnswer.self, bytes, expected: "a token answer (RFC 6749)", snakeCase: true)
    }

    package static func device(_ bytes: [UInt8]) throws -> OAuthDeviceAnswer {
        try JSONAnswer.decode(OAuthDeviceAnswer.self, bytes, expected: "a device authorization answer (RFC 6749)", snakeCase: true)
    }

    /// The error an answer states, if it is one.
    package static func error(_ bytes: [UInt8]) -> OAuthErrorAnswer? {
        try? JSONAnswer.decode(OAuthErrorAnswer.self, bytes, expected: "an error", snakeCase: true)
    }
}

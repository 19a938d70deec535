import Foundation

/// Reads an OAuth endpoint's JSON answers; what is not the RFC's shape is a `ParseError`.
package enum OAuthAnswerParser {
    package static func token(_ bytes: [UInt8]) throws -> OAuthTokenAnswer {
        try decode(OAuthTokenAnswer.self, bytes, "a token answer")
    }

    package static func device(_ bytes: [UInt8]) throws -> OAuthDeviceAnswer {
        try decode(OAuthDeviceAnswer.self, bytes, "a device authorization answer")
    }

    /// The error an answer states, if it is one.
    package static func error(_ bytes: [UInt8]) -> OAuthErrorAnswer? {
        try? decode(OAuthErrorAnswer.self, bytes, "an error")
    }

    private static func decode<T: Decodable>(_ type: T.Type, _ bytes: [UInt8], _ what: String) throws -> T {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        do {
            return try decoder.decode(type, from: Data(bytes))
        } catch {
            throw ParseError.malformed("JSON that is not \(what) (RFC 6749)")
        }
    }
}

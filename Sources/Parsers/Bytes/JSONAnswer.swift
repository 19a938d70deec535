import FoundationEssentials

/// A service's JSON answer decoded as the type its docs promise. What is not that shape (a proxy's
/// page, cut-off JSON, a missing field) is a `ParseError` saying what was expected, never a crash.
package enum JSONAnswer {
    /// `expected`: what it should have been, for the message (`a folder listing as the API documents it`).
    package static func decode<T: Decodable>(_ type: T.Type, _ bytes: [UInt8], expected: String,
                                             snakeCase: Bool = false) throws -> T {
        let decoder = JSONDecoder()
        if snakeCase { decoder.keyDecodingStrategy = .convertFromSnakeCase }
        do {
            return try decoder.decode(type, from: Data(bytes))
        } catch {
            throw ParseError.malformed("JSON that is not \(expected)")
        }
    }
}

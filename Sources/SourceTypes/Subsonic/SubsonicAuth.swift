import Base
import Config
import FoundationEssentials

/// How a request proves who we are, chosen from what the server speaks (`SubsonicClient`): an
/// OpenSubsonic API key; else, from API 1.13.0 on, a token `md5(password + salt)` with a new
/// salt for every request; else (older servers, Supysonic's 1.12.0) the password hex-encoded.
/// Never the plain password. These parameters go into request URLs only — never into a
/// location, a cache key, a log line or an error.
package enum SubsonicAuth: Sendable {
    case apiKey(Secret)
    case token(username: String, password: Secret)
    case hexPassword(username: String, password: Secret)

    /// The first API version that takes a token.
    static let tokenVersion = "1.13.0"

    /// The parameters of one request.
    var parameters: [(String, String)] {
        switch self {
        case .apiKey(let key):
            return [("apiKey", key.reveal())]
        case .token(let username, let password):
            let salt = Self.salt()
            return [("u", username), ("t", Self.token(password: password.reveal(), salt: salt)), ("s", salt)]
        case .hexPassword(let username, let password):
            return [("u", username), ("p", "enc:" + Self.hex(Array(password.reveal().utf8)))]
        }
    }

    /// What the server is told the mechanism is, for messages.
    var shownName: String {
        switch self {
        case .apiKey: "API key"
        case .token: "token"
        case .hexPassword: "password"
        }
    }

    /// Every text a request carries that must never be shown: a server's error message that
    /// echoes one is not repeated.
    var secrets: [String] {
        switch self {
        case .apiKey(let key): [key.reveal()]
        case .token(_, let password), .hexPassword(_, let password): [password.reveal(), Self.hex(Array(password.reveal().utf8))]
        }
    }

    package static func token(password: String, salt: String) -> String {
        hex(MD5.hash(Array((password + salt).utf8)))
    }

    /// 12 random hex digits: the API asks for at least six characters.
    package static func salt() -> String {
        var generator = SystemRandomNumberGenerator()
        return hex((0..<6).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }

    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef")
        return String(bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0x0F)]] })
    }
}

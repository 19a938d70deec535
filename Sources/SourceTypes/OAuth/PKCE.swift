import Base
import FoundationEssentials

/// Proof Key for Code Exchange (RFC 7636): a random verifier kept here, and its S256 challenge
/// sent with the authorization request — a code caught on its way back is useless without it.
package struct PKCE: Sendable {
    package let verifier: String

    /// 32 random bytes, base64url: 43 characters, as §4.1 recommends.
    package init() {
        var generator = SystemRandomNumberGenerator()
        verifier = Self.base64url((0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }

    package init(verifier: String) {
        self.verifier = verifier
    }

    /// `BASE64URL(SHA256(verifier))` (§4.2).
    package var challenge: String {
        Self.base64url(SHA256.hash(Array(verifier.utf8)))
    }

    static func base64url(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacing("+", with: "-").replacing("/", with: "_").replacing("=", with: "")
    }
}

/// A token endpoint's answer (RFC 6749 §5.1): the access token, how long it lasts, and a refresh
/// token (absent when the old one stays valid).
package struct OAuthTokenAnswer: Decodable, Sendable {
    package var accessToken: String
    package var tokenType: String?
    package var expiresIn: Int?
    package var refreshToken: String?
}

/// A device authorization answer (RFC 8628 §3.2). Yandex writes `verification_url` where the
/// RFC writes `verification_uri`: either is read.
package struct OAuthDeviceAnswer: Decodable, Sendable {
    package var deviceCode: String
    package var userCode: String
    package var verificationUri: String?
    package var verificationUrl: String?
    package var interval: Int?
    package var expiresIn: Int?

    package var verification: String? { verificationUri ?? verificationUrl }
}

/// An error answer (RFC 6749 §5.2, RFC 8628 §3.5): `invalid_grant`, `authorization_pending`, …
package struct OAuthErrorAnswer: Decodable, Sendable {
    package var error: String
    package var errorDescription: String?
}

import FoundationEssentials

/// What a login left for one source: its tokens, when the access token expires, and — once the
/// provider refused the refresh token — why the source needs a new login. Prints as
/// `<tokens>`: never its contents.
package struct TokenRecord: Codable, Sendable, Equatable, CustomStringConvertible {
    package var accessToken: String?
    package var refreshToken: String?
    package var expiresAt: Date?
    /// Set when the refresh token was refused: the source waits for `cloudplayerctl login`.
    package var needsLogin: String?

    package init(accessToken: String?, refreshToken: String?, expiresAt: Date?, needsLogin: String? = nil) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.expiresAt = expiresAt
        self.needsLogin = needsLogin
    }

    /// Whether the access token is usable for `margin` seconds more (one without an expiry is).
    package func isFresh(for margin: TimeInterval, now: Date = Date()) -> Bool {
        guard accessToken != nil, needsLogin == nil else { return false }
        return expiresAt.map { $0.timeIntervalSince(now) > margin } ?? true
    }

    package var description: String { "<tokens>" }
}

/// An OAuth endpoint's error answer (`invalid_grant`, `authorization_pending`, `slow_down`,
/// `expired_token`, `access_denied`, …), as the flows need to tell them apart.
package struct OAuthRefusal: Error, Equatable, CustomStringConvertible {
    package var code: String
    package var explanation: String?

    package var description: String {
        "the provider answered \(code)" + (explanation.map { " (\($0.prefix(200)))" } ?? "")
    }
}

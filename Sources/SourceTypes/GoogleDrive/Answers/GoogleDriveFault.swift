/// An error body of a Google API: `{"error": {"code": 403, "message": "…", "errors": [{"domain":
/// "usageLimits", "reason": "userRateLimitExceeded", "message": "…"}]}}`.
/// https://developers.google.com/drive/api/guides/handle-errors
package struct GoogleDriveFault: Decodable, Sendable, Equatable {
    package var error: Detail

    package struct Detail: Decodable, Sendable, Equatable {
        package var code: Int?
        package var message: String?
        package var errors: [Item]?
    }

    package struct Item: Decodable, Sendable, Equatable {
        package var domain: String?
        package var reason: String?
        package var message: String?
    }

    /// The first error's `reason` (`userRateLimitExceeded`, `notFound`, `authError`…).
    package var reason: String? { error.errors?.first?.reason }

    /// Whether it is a rate limit, to be backed off and retried, rather than a refusal.
    package var isRateLimit: Bool {
        ["userRateLimitExceeded", "rateLimitExceeded"].contains(reason ?? "")
    }
}

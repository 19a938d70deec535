import Base

/// An API error body: `{"error_summary": "path/not_found/..", "error": {".tag": "path", …}}` (409
/// endpoint errors, 401 `expired_access_token`/`invalid_access_token`, 429 `too_many_requests`).
/// The summary's tags, `/`-separated, say what went wrong.
/// https://www.dropbox.com/developers/documentation/http/documentation#error-handling
package struct DropboxFault: Decodable, Sendable, Equatable {
    package var errorSummary: String

    enum CodingKeys: String, CodingKey {
        case errorSummary = "error_summary"
    }

    /// `path/not_found` of `path/not_found/...` (the trailing dots are a space for words).
    package var tags: String {
        errorSummary.split(separator: "/").filter { !$0.allSatisfy { $0 == "." } }
            .map { $0.trimmingWhitespace() }.filter { !$0.isEmpty }.joined(separator: "/")
    }

    package init(errorSummary: String) {
        self.errorSummary = errorSummary
    }
}

import Config

/// Where a source's access token comes from: the config file (`token`, `token_file`,
/// `token_command`), or tokens a login stored that refresh themselves (`StoredTokens`). A
/// client asks for `current()` before a request, and for `renewed(after:)` once when a request
/// is answered 401 — then sends it again.
package protocol AccessTokens: Sendable {
    /// The token to send now.
    nonisolated(nonsending) func current() async throws -> Secret

    /// `refused` was answered 401: a new token, or nil when none can be had (the refusal stands).
    nonisolated(nonsending) func renewed(after refused: Secret) async throws -> Secret?
}

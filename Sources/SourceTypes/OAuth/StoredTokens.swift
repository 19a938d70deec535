import Base
import Config
import FoundationEssentials
import Logging
import Model

/// The tokens a login stored for one source, kept fresh: refreshed a minute before they expire,
/// and once more when a request is answered 401; a rotated refresh token is written back at
/// once. A refresh token the provider refuses (`invalid_grant`: revoked, or expired) marks the
/// source "needs login" in its record — one journal line, a clear error for every request of
/// that source, and nothing else stops — until `cloudplayerctl login` writes new tokens, which
/// are picked up without a restart (the record is read again while it needs a login).
package final class StoredTokens: AccessTokens {
    /// Seconds before expiry at which a token is refreshed.
    static let ahead: TimeInterval = 60

    private let source: String
    private let store: TokenStore
    private let client: OAuthClient
    private let logger = Logger(label: "cloudplayerd.oauth")
    private let record = Locked<TokenRecord?>(nil)
    /// The refresh under way, shared by every request that needs it.
    private let refreshing = SharedWork<Secret>()

    package init(source: String, store: TokenStore, client: OAuthClient) {
        self.source = source
        self.store = store
        self.client = client
    }

    package nonisolated(nonsending) func current() async throws -> Secret {
        var known = record.withLock { $0 }
        if known == nil || known?.needsLogin != nil {
            known = try await store.load(source)
            record.withLock { $0 = known }
        }
        // The recorded reason first: a refused refresh token leaves a record without tokens, and
        // "no login is stored" would hide why (one message, the real one, as `sources` says).
        if let reason = known?.needsLogin { throw needsLogin(reason) }
        guard let known, known.accessToken != nil || known.refreshToken != nil else { throw needsLogin("no login is stored") }
        if known.isFresh(for: Self.ahead), let access = known.accessToken { return Secret(access) }
        return try await refreshed()
    }

    package nonisolated(nonsending) func renewed(after refused: Secret) async throws -> Secret? {
        // The file is the newest word: a login, or another process's refresh (a rotated refresh
        // token), may have written it since. Its refresh token makes the new access token.
        if let stored = try await store.load(source) { record.withLock { $0 = stored } }
        // A request sent before another's refresh was refused meets its 401 after: the reason stands.
        if let reason = record.withLock({ $0?.needsLogin }) { throw needsLogin(reason) }
        // Requests sent together meet the 401 together: the first one's refresh serves the rest.
        if let known = record.withLock({ $0 }), let access = known.accessToken, access != refused.reveal(), known.isFresh(for: Self.ahead) {
            return Secret(access)
        }
        return try await refreshed()
    }

    /// A new access token, from the refresh token; one refresh at a time for all callers.
    private nonisolated(nonsending) func refreshed() async throws -> Secret {
        try await refreshing.run { [self] in try await refresh() }
    }

    private func refresh() async throws -> Secret {
        guard let known = record.withLock({ $0 }), let refreshToken = known.refreshToken else {
            throw needsLogin("the access token expired and there is no refresh token")
        }
        let fresh: TokenRecord
        do {
            fresh = try await client.grant([("grant_type", "refresh_token"), ("refresh_token", refreshToken)], keeping: refreshToken)
        } catch let refusal as OAuthRefusal where refusal.code == "invalid_grant" {
            let reason = "the provider refused the refresh token (revoked or expired)"
            var marked = known
            marked.accessToken = nil
            marked.refreshToken = nil
            marked.needsLogin = reason
            record.withLock { $0 = marked }
            try? await store.save(marked, for: source)
            logger.error("source needs login: \(reason); run `cloudplayerctl login \(source)`", metadata: ["source": "\(source)"])
            throw needsLogin(reason)
        } catch let refusal as OAuthRefusal {
            throw LoaderError.service(source: source, reason: "the token could not be refreshed: \(refusal)")
        }
        // Stored before any request can use it: a provider whose refresh tokens are single-use
        // (Box) has killed the old one, so a process that dies after using the new access token
        // must find the new refresh token on disk. Only then is it the token other requests see.
        do {
            try await store.save(fresh, for: source)
        } catch {
            // Not stored (a full disk…): kept for this process, as the old refresh token may be dead.
            record.withLock { $0 = fresh }
            throw error
        }
        record.withLock { $0 = fresh }
        logger.debug("access token refreshed", metadata: ["source": "\(source)"])
        guard let access = fresh.accessToken else { throw needsLogin("the provider sent no access token") }
        return Secret(access)
    }

    private func needsLogin(_ reason: String) -> LoaderError {
        .service(source: source, reason: "needs login: \(reason); run `cloudplayerctl login \(source)`")
    }
}

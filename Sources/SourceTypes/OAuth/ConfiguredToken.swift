import Base
import Config
import Model

/// A token the config file gives: read on first use (a small file, or a command's output, on a
/// thread of its own), and read again once after a 401 — a token file replaced
/// since is then picked up without a restart.
package final class ConfiguredToken: AccessTokens {
    private let source: String
    private let origin: Secret.Origin
    private let known = Locked<Secret?>(nil)

    package init(source: String, origin: Secret.Origin) {
        self.source = source
        self.origin = origin
    }

    package nonisolated(nonsending) func current() async throws -> Secret {
        if let token = known.withLock({ $0 }) { return token }
        let token = try await OffPool.run { [self] in try read() }
        known.withLock { $0 = token }
        return token
    }

    package nonisolated(nonsending) func renewed(after refused: Secret) async throws -> Secret? {
        let token = try await OffPool.run { [self] in try read() }
        known.withLock { $0 = token }
        return token == refused ? nil : token
    }

    private func read() throws -> Secret {
        do {
            return try origin.resolve()
        } catch {
            throw LoaderError.configuration("source '\(source)'.token: \(error)")
        }
    }
}

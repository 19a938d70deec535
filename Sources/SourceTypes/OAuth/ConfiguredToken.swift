import Base
import Config
import Model

/// A token the config file gives: read on first use (a small file, or a command's output, on the
/// `BlockingPool`, once for all the requests that wait for it), and read again once after a 401 —
/// a token file replaced since is then picked up without a restart.
package final class ConfiguredToken: AccessTokens {
    private let source: String
    private let origin: Secret.Origin
    private let known = Resolved<Secret>()

    package init(source: String, origin: Secret.Origin) {
        self.source = source
        self.origin = origin
    }

    package nonisolated(nonsending) func current() async throws -> Secret {
        try await known.value { [self] in try await read() }
    }

    package nonisolated(nonsending) func renewed(after refused: Secret) async throws -> Secret? {
        known.forget { $0 == refused }
        let token = try await current()
        return token == refused ? nil : token
    }

    private func read() async throws -> Secret {
        do {
            return try await origin.resolve()
        } catch {
            throw LoaderError.configuration("source '\(source)'.token: \(error)")
        }
    }
}

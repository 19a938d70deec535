import AsyncHTTPClient
import Config

extension ProxyServer {
    /// Its credentials as the HTTP client sends them to a proxy, `Basic …`: nil without a user
    /// name. The password, from a file or a command, is read now (on the `BlockingPool`).
    func authorization() async throws -> HTTPClient.Authorization? {
        guard let username else { return nil }
        return .basic(username: username, password: try await password?.resolve().reveal() ?? "")
    }

    /// `Proxy-Authorization`'s value, for a tunnel of our own (`ProxyTunnelHandler`).
    func basicAuthorization() async throws -> String? {
        try await authorization()?.headerValue
    }
}

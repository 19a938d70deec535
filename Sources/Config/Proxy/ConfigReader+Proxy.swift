import FoundationEssentials

extension ConfigReader {
    /// The keys a proxy setting is written with, in `[network]` and in any `[[source]]`: the
    /// proxy and its password's usual secret forms.
    package static let proxyKeys: Set<String> = Secret.Origin.keys(for: "proxy_password").union(["proxy"])

    /// `proxy = "http://[user[:password]@]host:port" | "socks5h://host:port" | "none"`, with the
    /// password also from `proxy_password_file` / `_command` / `_keyring` (the other secret settings' forms).
    /// Errors name the key, never the value (it may carry the password).
    package func proxy(_ table: TOMLTable, in section: String) throws(ConfigError) -> ProxySetting? {
        let password = try secret(table, "proxy_password", in: section)
        guard let text = try string(table, "proxy", in: section) else {
            if password != nil { throw ConfigError(line: nil, key: qualified("proxy", section), "missing (proxy_password is given without a proxy)") }
            return nil
        }
        if text.value.lowercased() == "none" {
            guard password == nil else { throw ConfigError(line: text.line, key: qualified("proxy_password", section), "is given with proxy = \"none\"") }
            return ProxySetting.none
        }
        var server: ProxyServer
        do throws(ProxyURLError) {
            server = try ProxyServer.parse(text.value)
        } catch {
            throw ConfigError(line: text.line, key: qualified("proxy", section), error.problem)
        }
        if let password {
            guard server.kind == .http, server.username != nil, server.password == nil else {
                throw ConfigError(line: text.line, key: qualified("proxy_password", section),
                                  "needs an http:// proxy with a user name and no password in the URL (http://USER@host:port)")
            }
            server.password = password
        }
        return .server(server)
    }
}

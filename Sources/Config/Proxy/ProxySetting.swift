/// `proxy = …` in `[network]` or a `[[source]]`: a proxy for every request, or `"none"` — always
/// direct, whatever the environment says.
package enum ProxySetting: Sendable, Equatable {
    case none
    case server(ProxyServer)
}

import FoundationEssentials

extension ConfigFile {
    /// The proxies requests go through: `[network] proxy` over the environment's, and a source's
    /// own `proxy` over both when `source` names one with it.
    package func proxyRules(source: String? = nil, environment: [String: String] = ProcessInfo.processInfo.environment) -> ProxyRules {
        ProxyRules(environment: environment, configured: proxy).overridden(by: source.flatMap { sourceProxies[$0] })
    }
}

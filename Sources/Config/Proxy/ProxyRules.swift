import FoundationEssentials

/// Which proxy, if any, a request to a URL goes through: the config's `proxy` (a source's own,
/// else `[network]`'s) when there is one, else the environment as curl reads it — `http_proxy`
/// (lower case only: `HTTP_PROXY` can be set by a web server's `Proxy:` header in CGI, so curl
/// ignores it) for `http://`, `https_proxy`/`HTTPS_PROXY` for `https://`, `all_proxy`/`ALL_PROXY`
/// for either when its own is unset; an empty variable is unset. `no_proxy`/`NO_PROXY` applies
/// to every proxy, configured or not, as in curl. A pure value: chosen per URL, so a redirect to
/// another host chooses again.
package struct ProxyRules: Sendable, Equatable {
    /// A proxy read from the environment, or why the variable cannot be used (said when a
    /// request would use it).
    package typealias Entry = Result<ProxyServer, ProxyURLError>

    package var configured: ProxySetting?
    package var http: Entry?
    package var https: Entry?
    package var all: Entry?
    package var noProxy = NoProxyList()

    /// No proxy ever.
    package static let direct = ProxyRules(environment: [:], configured: ProxySetting.none)

    package init(environment: [String: String], configured: ProxySetting? = nil) {
        self.configured = configured
        func read(_ names: [String]) -> Entry? {
            guard let (name, value) = names.lazy.compactMap({ name in environment[name].map { (name, $0) } }).first(where: { !$0.1.isEmpty })
            else { return nil }
            do throws(ProxyURLError) {
                return .success(try ProxyServer.parse(value))
            } catch {
                return .failure(ProxyURLError("\(name): \(error.problem)"))
            }
        }
        http = read(["http_proxy"])
        https = read(["https_proxy", "HTTPS_PROXY"])
        all = read(["all_proxy", "ALL_PROXY"])
        let noProxyText = [environment["no_proxy"], environment["NO_PROXY"]].compactMap { $0 }.first { !$0.isEmpty }
        noProxy = NoProxyList(noProxyText ?? "")
    }

    /// These rules with a source's own `proxy` setting in place of `[network]`'s (nil: none of its own).
    package func overridden(by setting: ProxySetting?) -> ProxyRules {
        guard let setting else { return self }
        var rules = self
        rules.configured = setting
        return rules
    }

    /// The proxy for a request to `url`; nil: straight to the server. Throws when the variable
    /// that would name the proxy cannot be read.
    package func proxy(for url: URL) throws(ProxyURLError) -> ProxyServer? {
        let entry: Entry?
        switch configured {
        case .none?: return nil
        case .server(let server)?: entry = .success(server)
        case nil: entry = url.scheme?.lowercased() == "https" ? (https ?? all) : (http ?? all)
        }
        guard let entry else { return nil }
        if let host = url.host(percentEncoded: false), noProxy.excludes(host: host) { return nil }
        return try entry.get()
    }
}

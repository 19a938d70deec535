import Config
import Foundation
import Testing

/// Which proxy a URL goes through, as curl decides it (libcurl-env(3), CURLOPT_PROXY(3),
/// CURLOPT_NOPROXY(3), everything.curl.dev "Proxy environment variables"): a pure value, so each
/// rule is checked here without a network.
@Suite struct ProxyRulesTests {
    private func proxy(_ url: String, _ environment: [String: String], configured: ProxySetting? = nil) throws -> String? {
        try ProxyRules(environment: environment, configured: configured).proxy(for: URL(string: url)!)?.description
    }

    @Test("http_proxy serves http:// only, in lower case only; HTTP_PROXY is ignored (CGI's Proxy: header)")
    func httpProxyLowerCaseOnly() throws {
        #expect(try proxy("http://a.example/", ["http_proxy": "http://p:3128"]) == "http://p:3128")
        #expect(try proxy("https://a.example/", ["http_proxy": "http://p:3128"]) == nil)
        #expect(try proxy("http://a.example/", ["HTTP_PROXY": "http://p:3128"]) == nil)
    }

    @Test("https_proxy and HTTPS_PROXY serve https://, the lower case first")
    func httpsProxy() throws {
        #expect(try proxy("https://a.example/", ["HTTPS_PROXY": "http://up:1"]) == "http://up:1")
        #expect(try proxy("https://a.example/", ["https_proxy": "http://low:2", "HTTPS_PROXY": "http://up:1"]) == "http://low:2")
        #expect(try proxy("http://a.example/", ["https_proxy": "http://low:2"]) == nil)
    }

    @Test("all_proxy / ALL_PROXY serve both schemes when their own variable is unset or empty")
    func allProxy() throws {
        #expect(try proxy("http://a.example/", ["ALL_PROXY": "socks5h://s:9050"]) == "socks5h://s:9050")
        #expect(try proxy("https://a.example/", ["all_proxy": "socks5://s:1"]) == "socks5://s:1")
        #expect(try proxy("https://a.example/", ["all_proxy": "socks5://s:1", "https_proxy": "http://h:2"]) == "http://h:2")
        #expect(try proxy("https://a.example/", ["all_proxy": "socks5://s:1", "https_proxy": ""]) == "socks5://s:1")
    }

    @Test("a proxy without a scheme is HTTP, without a port on 1080; IPv6 proxies keep their brackets")
    func proxyURLs() throws {
        #expect(try proxy("http://a/", ["http_proxy": "proxy.lan:8080"]) == "http://proxy.lan:8080")
        #expect(try proxy("http://a/", ["http_proxy": "http://proxy.lan"]) == "http://proxy.lan:1080")
        #expect(try proxy("http://a/", ["http_proxy": "http://[::1]:3128/"]) == "http://[::1]:3128")
        let server = try ProxyServer.parse("http://us%40er:p%3Ass@p:1")
        #expect(server.username == "us@er")
        #expect(server.password == .inline(Secret("p:ss")))
        #expect(server.description == "http://p:1")
    }

    @Test("unusable proxy URLs are one error naming the variable, never quoting it")
    func badProxies() throws {
        for bad in ["https://p:1", "socks4://p:1", "ftp://p", "http://p:1/path", "socks5://user:pw@p:1", "http://p:99999"] {
            #expect(throws: ProxyURLError.self) { try ProxyServer.parse(bad) }
        }
        let error = #expect(throws: ProxyURLError.self) { try proxy("https://a/", ["https_proxy": "socks4://anna:SECRETPW@p:1"]) }
        #expect(error?.problem.hasPrefix("https_proxy: ") == true)
        #expect(error?.problem.contains("SECRETPW") == false)
    }

    @Test("the config's proxy overrides the environment; \"none\" is direct whatever it says; no_proxy still applies")
    func configured() throws {
        let environment = ["https_proxy": "http://env:1", "no_proxy": "intra.example"]
        let configured = ProxySetting.server(try ProxyServer.parse("socks5h://cfg:2"))
        #expect(try proxy("https://a.example/", environment, configured: configured) == "socks5h://cfg:2")
        #expect(try proxy("http://a.example/", environment, configured: configured) == "socks5h://cfg:2")
        #expect(try proxy("https://a.example/", environment, configured: ProxySetting.none) == nil)
        #expect(try proxy("https://www.intra.example/", environment, configured: configured) == nil)
        let rules = ProxyRules(environment: environment, configured: configured).overridden(by: ProxySetting.none)
        #expect(try rules.proxy(for: URL(string: "https://a.example/")!) == nil)
        #expect(ProxyRules(environment: environment).overridden(by: nil) == ProxyRules(environment: environment))
    }

    @Test("no_proxy names match themselves and their subdomains, with or without a leading dot, never a longer name")
    func noProxyNames() {
        let list = NoProxyList("example.com, .intra.lan,LOCALHOST")
        #expect(list.excludes(host: "example.com"))
        #expect(list.excludes(host: "www.example.com"))
        #expect(list.excludes(host: "WWW.Example.COM."))
        #expect(!list.excludes(host: "notexample.com"))
        #expect(!list.excludes(host: "example.com.org"))
        #expect(list.excludes(host: "intra.lan"))
        #expect(list.excludes(host: "a.b.intra.lan"))
        #expect(list.excludes(host: "localhost"))
        #expect(!list.excludes(host: "127.0.0.1"))  // names are never resolved
    }

    @Test("no_proxy \"*\" alone matches every host; an empty no_proxy matches none")
    func noProxyAll() {
        #expect(NoProxyList("*").excludes(host: "anything.example"))
        #expect(NoProxyList(" * ").excludes(host: "10.0.0.1"))
        #expect(!NoProxyList("").excludes(host: "example.com"))
        #expect(!NoProxyList(",,").excludes(host: "example.com"))
    }

    @Test("no_proxy IP literals match that address only; CIDR networks (curl 7.86) their addresses; IPv6 with or without brackets")
    func noProxyAddresses() {
        let list = NoProxyList("127.0.0.1,192.168.0.0/16,::1,[fd00::]/8,10.1.2.3/33")
        #expect(list.excludes(host: "127.0.0.1"))
        #expect(!list.excludes(host: "127.0.0.2"))
        #expect(list.excludes(host: "192.168.44.5"))
        #expect(!list.excludes(host: "192.169.0.1"))
        #expect(list.excludes(host: "[::1]"))
        #expect(list.excludes(host: "::1"))
        #expect(list.excludes(host: "fdab::7"))
        #expect(!list.excludes(host: "fe80::1"))
        #expect(!list.excludes(host: "10.1.2.3"))  // a prefix longer than the address is no entry
        #expect(!NoProxyList("0.0.0.1").excludes(host: "1"))
        #expect(NoProxyList("0.0.0.0/0").excludes(host: "8.8.8.8"))
        #expect(!NoProxyList("0.0.0.0/0").excludes(host: "::8"))
    }

    @Test("the URL's port plays no part; an entry with a port matches nothing, as in curl")
    func noProxyPorts() throws {
        #expect(try proxy("http://example.com:8080/", ["http_proxy": "p:1", "no_proxy": "example.com"]) == nil)
        #expect(try proxy("http://example.com:8080/", ["http_proxy": "p:1", "no_proxy": "example.com:8080"]) == "http://p:1")
    }

    @Test("no_proxy wins over NO_PROXY; NO_PROXY serves when no_proxy is unset")
    func noProxyCase() throws {
        #expect(try proxy("http://a.example/", ["http_proxy": "p:1", "NO_PROXY": "a.example"]) == nil)
        #expect(try proxy("http://a.example/", ["http_proxy": "p:1", "NO_PROXY": "a.example", "no_proxy": "b.example"]) == "http://p:1")
    }

    @Test("[network] and [[source]] proxy keys: URL, none, password from a file; errors never quote the URL")
    func configKeys() throws {
        let folder = URL(fileURLWithPath: "/tmp")
        let file = try ConfigFile.parse("""
            [network]
            proxy = "http://anna@127.0.0.1:8888"
            proxy_password_file = "/run/pw"
            [[source]]
            name = "a"
            type = "http"
            url = "http://x/"
            proxy = "none"
            """, relativeTo: folder)
        guard case .server(let server)? = file.proxy else { Issue.record("no proxy"); return }
        #expect(server.password == .file("/run/pw", setting: "proxy_password_file of [network]"))
        #expect(server.username == "anna")
        #expect(file.sourceProxies["a"] == ProxySetting.none)
        #expect(try file.proxyRules(source: "a", environment: [:]).proxy(for: URL(string: "http://x/")!) == nil)
        #expect(try file.proxyRules(environment: [:]).proxy(for: URL(string: "http://x/")!)?.description == "http://127.0.0.1:8888")
        let error = #expect(throws: ConfigError.self) { try ConfigFile.parse("[network]\nproxy = \"socks4://anna:SECRETPW@h:1\"\n", relativeTo: folder) }
        #expect(error?.description.contains("network.proxy") == true)
        #expect(error?.description.contains("SECRETPW") == false)
    }
}

import Config
import Foundation
import Loader
import Model
import Testing
import TestSupport

/// Which proxy is used (environment, `[network]`, a source's own, `none`, `no_proxy`) and a
/// proxy that refuses, against real proxies (`ProxyLoaderTests`' rig).
extension ProxyLoaderTests {
    @Test("no_proxy is honoured: a host it names goes direct, and the proxy's log shows no request for it")
    func noProxy() async throws {
        let proxy = try await ProxyTestServer(.tinyproxy)
        let rig = try await Rig(host: "127.0.0.1", environment: ["http_proxy": proxy.url(), "no_proxy": "localhost, 127.0.0.1"])
        try await rig.scanAndPlay()
        await rig.close()
        #expect(proxy.targets().isEmpty, "\(proxy.targets())")

        // The same without no_proxy: through the proxy (the check above is not vacuous).
        let through = try await Rig(host: "127.0.0.1", environment: ["http_proxy": proxy.url()])
        try await through.scanAndPlay()
        await through.close()
        #expect(!proxy.targets().isEmpty && proxy.targets().allSatisfy { $0 == through.target }, "\(proxy.targets())")
        await proxy.stop()
    }

    @Test("the environment's proxy serves when the config names none; [network] proxy overrides it; a source's own overrides both; \"none\" goes direct")
    func precedence() async throws {
        let http = try await ProxyTestServer(.tinyproxy, privateNames: [Self.hidden])
        let socks = try await ProxyTestServer(.socks5, privateNames: [Self.hidden])
        let environment = ["http_proxy": socks.url(), "HTTP_PROXY": "http://127.0.0.1:9"]

        let fromEnvironment = try await Rig(environment: environment)
        try await fromEnvironment.scanAndPlay()
        await fromEnvironment.close()
        #expect(socks.targets().contains(fromEnvironment.target) && http.targets().isEmpty)

        let fromNetwork = try await Rig(network: "proxy = \"\(http.url())\"", environment: environment)
        try await fromNetwork.scanAndPlay()
        await fromNetwork.close()
        #expect(http.targets().contains(fromNetwork.target) && !socks.targets().contains(fromNetwork.target))

        let fromSource = try await Rig(network: "proxy = \"\(http.url())\"", source: "proxy = \"\(socks.url())\"", environment: environment)
        try await fromSource.scanAndPlay()
        await fromSource.close()
        #expect(socks.targets().contains(fromSource.target) && !http.targets().contains(fromSource.target))

        let direct = try await Rig(host: "127.0.0.1", network: "proxy = \"\(http.url())\"", source: "proxy = \"none\"", environment: environment)
        try await direct.scanAndPlay()
        await direct.close()
        #expect(!socks.targets().contains(direct.target) && !http.targets().contains(direct.target))
        await http.stop()
        await socks.stop()
    }

    @Test("a proxy that wants a password (407) or refuses it (tinyproxy answers 401) is one error naming the proxy, not the server, and never the password",
          arguments: [false, true])
    func refusingProxy(wrongPassword: Bool) async throws {
        let proxy = try await ProxyTestServer(.tinyproxy, credentials: ("proxyuser", "right-\(UUID().uuidString.prefix(8))"),
                                              privateNames: [Self.hidden])
        let wrong = "WRONG-\(UUID().uuidString.prefix(8))"
        let rig = try await Rig(network: "proxy = \"\(proxy.url(password: wrong, withCredentials: wrongPassword))\"")
        let error = await #expect(throws: LoaderError.self) { try await rig.loader.open(rig.url("a.mp3")) }
        let report = await rig.library.scan(["dav"], loader: rig.loader).first
        await rig.close()
        let message = error.map { "\($0)" } ?? "no error"
        // Forwarded (an `http://` source): tinyproxy's own 401, told by its Server header.
        let said = wrongPassword
            ? "the proxy http://127.0.0.1:\(proxy.port) refused the connection (a wrong user name or password)"
            : "the proxy http://127.0.0.1:\(proxy.port) refused the connection (407 proxy authentication required: "
                + "give the user and password in the proxy URL)"
        #expect(message == said, "\(message)")
        #expect(report?.problems.joined().contains(said) ?? false, "\(String(describing: report))")
        for text in [message, "\(String(describing: report))"] { #expect(!text.contains(wrong) && !text.contains("proxyuser")) }
        #expect(!proxy.targets().isEmpty)
        await proxy.stop()
    }

    @Test("Squid with Debian's rules refusing a forwarded request (port 9 is not among its Safe_ports): one error naming the proxy and the place, from its X-Squid-Error")
    func squidRefusesForwarded() async throws {
        let proxy = try await ProxyTestServer(.squid, privateNames: [Self.hidden])
        let rig = try await Rig(network: "proxy = \"\(proxy.url())\"")
        let error = await #expect(throws: LoaderError.self) { try await rig.loader.open(URL(string: "http://\(Self.hidden):9/a.mp3")!) }
        await rig.close()
        #expect(error == .proxy("the proxy http://127.0.0.1:\(proxy.port) refused the connection (403: its rules do not allow \(Self.hidden):9)"),
                "\(String(describing: error))")
        await proxy.stop()
    }

    @Test("a proxy that is not there is one error naming it")
    func proxyDown() async throws {
        let port = try ServerProcess.freePort()
        let rig = try await Rig(host: "127.0.0.1", network: "proxy = \"socks5h://127.0.0.1:\(port)\"")
        let error = await #expect(throws: LoaderError.self) { try await rig.loader.open(rig.url("a.mp3")) }
        await rig.close()
        #expect(error == .proxy("the proxy socks5h://127.0.0.1:\(port) cannot be reached (Connection refused)"), "\(String(describing: error))")
    }
}

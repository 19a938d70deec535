import Config
import Foundation
import Loader
import Model
import Testing
import TestSupport

/// Stations through a proxy: a SHOUTcast 1 station (`ICY 200 OK`) and an Icecast one (`HTTP/1.0
/// 200`) reached only through the proxy — a request tinyproxy (with Basic auth) and Squid (with
/// Debian's rules) forward, or SOCKS5. Most stations are `http://` on port 8000: a `CONNECT`
/// there is what Squid's default rules refuse.
extension ProxyLoaderTests {
    static let station = "radio.behind-proxy.test"

    private func loader(proxy: String) throws -> LoaderActor {
        var settings = LoaderSettings(cacheDirectory: try Fixtures.shared.scratchDirectory())
        settings.proxy = ProxyRules(environment: [:], configured: .server(try ProxyServer.parse(proxy)))
        return LoaderActor(settings: settings)
    }

    static func icyStation(statusLine: Bool = true) async throws -> ICYStreamServer {
        var options = ICYStreamServer.Options()
        options.icyStatusLine = statusLine
        options.pace = .asFastAsPossible
        return try await ICYStreamServer(file: try await RadioFixtures.shared.url(.station), options: options)
    }

    @Test("a SHOUTcast 1 (ICY 200 OK) and an Icecast (HTTP/1.0 200) station play through tinyproxy with auth, Squid with Debian's rules, and SOCKS5: one request through the proxy, forwarded by the HTTP ones",
          arguments: ProxyTestServer.Kind.allCases, [true, false])
    func icyThroughProxy(kind: ProxyTestServer.Kind, shoutcast: Bool) async throws {
        let proxy = try await ProxyTestServer(kind, credentials: kind == .tinyproxy ? ("proxyuser", "pp-\(UUID().uuidString.prefix(8))") : nil,
                                              privateNames: [Self.station])
        let server = try await Self.icyStation(statusLine: shoutcast)
        let loader = try loader(proxy: proxy.url())
        let url = URL(string: "http://\(Self.station):\(server.port)/stream")!
        let source = try await loader.open(TrackLocation(url: url))
        let head = try await onOwnThread { try source.readBytes(at: 0, count: 4096) }
        source.cancel()
        await loader.shutdown()
        #expect(head.count > 0)
        let requests = try server.requests()
        #expect(requests.count == 1 && requests.last?.header("Icy-MetaData") == "1", "\(requests)")
        await server.stop()
        // Squid logs a request once it has ended: the station's, once its server stopped.
        #expect(try await eventually(within: 30) { proxy.targets() == ["\(Self.station):\(server.port)"] }, "\(proxy.requests())")
        #expect(proxy.requests().allSatisfy { $0.method == (kind == .socks5 ? "CONNECT" : "GET") && !$0.result.contains("DENIED") },
                "\(proxy.requests())")
        await proxy.stop()
    }
}

import Config
import Foundation
import Loader
import Model
import Testing
import TestSupport

/// Stations through a proxy: a SHOUTcast 1 station (`ICY 200 OK`) reached only through the proxy —
/// tinyproxy's `CONNECT` with Basic auth, or SOCKS5.
extension ProxyLoaderTests {
    static let station = "radio.behind-proxy.test"

    private func loader(proxy: String) throws -> LoaderActor {
        var settings = LoaderSettings(cacheDirectory: try Fixtures.shared.scratchDirectory())
        settings.proxy = ProxyRules(environment: [:], configured: .server(try ProxyServer.parse(proxy)))
        return LoaderActor(settings: settings)
    }

    static func icyStation() async throws -> ICYStreamServer {
        var options = ICYStreamServer.Options()
        options.icyStatusLine = true
        options.pace = .asFastAsPossible
        return try await ICYStreamServer(file: try await RadioFixtures.shared.url(.station), options: options)
    }

    @Test("a SHOUTcast 1 station (ICY 200 OK) plays through tinyproxy with auth and through SOCKS5: its one request through the proxy",
          arguments: [ProxyTestServer.Kind.tinyproxy, .socks5])
    func icyThroughProxy(kind: ProxyTestServer.Kind) async throws {
        let proxy = try await ProxyTestServer(kind, credentials: kind == .tinyproxy ? ("proxyuser", "pp-\(UUID().uuidString.prefix(8))") : nil,
                                              privateNames: [Self.station])
        let server = try await Self.icyStation()
        let loader = try loader(proxy: proxy.url())
        let url = URL(string: "http://\(Self.station):\(server.port)/stream")!
        let source = try await loader.open(TrackLocation(url: url))
        let head = try await onOwnThread { try source.readBytes(at: 0, count: 4096) }
        source.cancel()
        await loader.shutdown()
        #expect(head.count > 0)
        let requests = try server.requests()
        #expect(requests.count == 1 && requests.last?.header("Icy-MetaData") == "1", "\(requests)")
        #expect(proxy.targets() == ["\(Self.station):\(server.port)"], "\(proxy.targets())")
        await server.stop()
        await proxy.stop()
    }
}

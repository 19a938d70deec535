import Config
import Foundation
import Library
import Loader
import Model
import SourceTypes
import Testing
import TestSupport

/// The other makers of HTTP transports through a real proxy: the OAuth login's client and a cloud
/// drive's token session (Dropbox's emulator), and the open web (a URL no source covers).
extension ProxyLoaderTests {
    @Test("an OAuth login (loopback flow) and the cloud source's scan go through tinyproxy: its CONNECTs match the emulator's requests")
    func loginThroughProxy() async throws {
        let proxy = try await ProxyTestServer(.tinyproxy, credentials: ("proxyuser", "pp-\(UUID().uuidString.prefix(8))"))
        let rules = ProxyRules(environment: [:], configured: .server(try ProxyServer.parse(proxy.url())))
        let rig = try await DropboxLoginTests.Rig.start()
        _ = try await rig.loopbackLogin(port: try rig.settings().redirectPort ?? 0, proxy: rules)
        let api = "127.0.0.1:\(rig.server.emulator.apiPort)"
        let grants = try await rig.server.log().filter { $0.path.hasPrefix("/oauth2/token") }
        #expect(grants.count == 1 && proxy.targets() == [api], "the one token request, through one tunnel: \(proxy.targets())")

        _ = try rig.server.publish(try await Fixtures.shared.url(.vbrMP3), as: "Music/a.mp3")
        var settings = LoaderSettings(cacheDirectory: rig.folder.appendingPathComponent("cache"))
        settings.proxy = rules
        let loader = LoaderActor(settings: settings, sources: SourceSet(try rig.sources()))
        let library = try await rig.library()
        let report = try #require(await library.scan(["dbx"], loader: loader).first)
        await loader.shutdown()
        #expect(report.tracks == 1 && report.problems.isEmpty, "\(report)")
        let content = "127.0.0.1:\(rig.server.emulator.secondPort)"
        let targets = proxy.targets()
        #expect(targets.contains(content) && targets.allSatisfy { $0 == api || $0 == content }, "\(targets)")
        await proxy.stop()
    }

    @Test("a URL no source covers (the open web) goes through the proxy too")
    func openWeb() async throws {
        let proxy = try await ProxyTestServer(.socks5, privateNames: [Self.hidden, "web.behind-proxy.test"])
        let rig = try await Rig(network: "proxy = \"\(proxy.url())\"")
        // The same server under another name: no source's URL covers it, so no credentials go (401).
        let web = URL(string: "http://web.behind-proxy.test:\(rig.server.port)/a.mp3")!
        await #expect(throws: LoaderError.refused(source: "web", status: 401)) { try await rig.loader.open(web) }
        await rig.close()
        #expect(proxy.targets() == ["web.behind-proxy.test:\(rig.server.port)"], "\(proxy.targets())")
        await proxy.stop()
    }
}

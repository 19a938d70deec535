import Config
import Foundation
import Library
import Loader
import Model
import SourceTypes
import Testing
import TestSupport

/// The open web (a URL no source covers) through a real proxy; every source type and the OAuth
/// logins are `ProxyMatrixTests`.
extension ProxyLoaderTests {
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

import Config
import Daemon
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

    @Test("S3 (moto) and Subsonic (Supysonic) sources scan through a SOCKS5 proxy (Subsonic at a name only it resolves)")
    func s3AndSubsonic() async throws {
        // moto takes a host name for a virtual-hosted bucket's: S3 is reached at its address, and the
        // proxy's log, not the name, shows it went through.
        let s3Name = "127.0.0.1", subsonicName = "sub.behind-proxy.test"
        let proxy = try await ProxyTestServer(.socks5, privateNames: [subsonicName])
        let s3 = try await S3TestServer(checksSignatures: false)  // moto misjudges `delimiter=/` listings (S3SourceTests)
        try await s3.upload([("a/a.mp3", try await Fixtures.shared.url(.vbrMP3))])
        let subsonic = try await SubsonicTestServer()
        try subsonic.publish(try await Fixtures.shared.url(.cbrMP3), as: "x/b.mp3")
        try await subsonic.scan()
        let folder = try Fixtures.shared.scratchDirectory()
        let configuration = try Configuration.parse("""
            [cache]
            dir = "\(folder.appendingPathComponent("cache").path)"
            [network]
            proxy = "\(proxy.url())"
            [[source]]
            name = "s3"
            type = "s3"
            endpoint = "http://\(s3Name):\(s3.port)"
            bucket = "\(s3.bucket)"
            region = "us-east-1"
            access_key_id = "\(s3.accessKeyID)"
            secret_access_key = "\(s3.secretAccessKey)"
            path_style = true
            [[source]]
            name = "sub"
            type = "subsonic"
            url = "http://\(subsonicName):\(subsonic.port)/"
            username = "\(subsonic.username)"
            password = "\(subsonic.password)"
            """, relativeTo: folder)
        let loader = LoaderActor(configuration: configuration)
        let library = LibraryActor()
        try await library.openDatabase(at: folder.appendingPathComponent("library.sqlite"))
        let reports = await library.scan(["s3", "sub"], loader: loader)
        await loader.shutdown()
        for report in reports { #expect(report.tracks == 1 && report.problems.isEmpty && !report.failed, "\(report)") }
        let targets = Set(proxy.targets())
        #expect(targets == ["\(s3Name):\(s3.port)", "\(subsonicName):\(subsonic.port)"], "\(targets)")
        await s3.stop()
        await proxy.stop()
    }
}

import Config
import Foundation
import Loader
import Model
import SourceTypes
import Testing
import TestSupport

/// The five clouds through both proxies: the OAuth login's token request, then a scan and a range
/// of a track (the API host and the download host). The emulators hand out download links at
/// 127.0.0.1, so no private name can hide them: the proxy's log alone is the evidence — every
/// connection the login and the loader made is a line of it, to the emulator's two ports.
extension ProxyMatrixTests {
    enum Cloud: String, CaseIterable, Sendable { case yandexDisk, dropbox, oneDrive, googleDrive, box }

    @Test("each cloud's OAuth login (token endpoint) and its source (listing, then a range from the download host) through tinyproxy (Basic auth) and SOCKS5",
          arguments: Cloud.allCases, proxies)
    func cloud(_ cloud: Cloud, proxyKind: ProxyTestServer.Kind) async throws {
        let proxy = try await Self.proxy(proxyKind)
        switch cloud {
        case .yandexDisk: try await check(try await YandexDiskLoginTests.Rig.start(), through: proxy)
        case .dropbox: try await check(try await DropboxLoginTests.Rig.start(), through: proxy)
        case .oneDrive: try await check(try await OneDriveLoginTests.Rig.start(), through: proxy)
        case .googleDrive: try await check(try await GoogleDriveLoginTests.Rig.start(), through: proxy)
        case .box: try await check(try await BoxLoginTests.Rig.start(), through: proxy)
        }
        await proxy.stop()
    }

    private func check<Rig: CloudTestRig>(_ rig: Rig, through proxy: ProxyTestServer) async throws {
        let rules = ProxyRules(environment: [:], configured: .server(try ProxyServer.parse(proxy.url())))
        let first = try #require(try rig.sources().first as? (any SourceType & CloudAccountSource))
        let oauth = try #require(first.account.oauth)
        _ = try await rig.loopbackLogin(port: oauth.redirectPort ?? 0, proxy: rules)
        let api = "127.0.0.1:\(rig.server.emulator.apiPort)", download = "127.0.0.1:\(rig.server.emulator.secondPort)"
        let tokens = "\(oauth.tokenURL.host ?? ""):\(oauth.tokenURL.port ?? 0)"  // Google's is its second port
        let grants = try await rig.server.log().filter { $0.path.split(separator: "?").first.map(String.init) == oauth.tokenURL.path }
        // The browser's visit to the authorize page is the user's, not ours: only the token request.
        #expect(grants.count == 1 && proxy.targets() == [tokens], "the one token request, through one connection: \(proxy.targets())")

        let file = try await Fixtures.shared.url(.vbrMP3)
        try rig.server.publish(file, as: "Music/a.mp3")
        var settings = LoaderSettings(cacheDirectory: rig.folder.appendingPathComponent("cache"))
        settings.proxy = rules
        let loader = LoaderActor(settings: settings, sources: SourceSet([first]))
        let library = try await rig.library()
        let report = try #require(await library.scan([first.name], loader: loader).first)
        #expect(report.tracks == 1 && report.problems.isEmpty && !report.failed, "\(report)")
        let source = try await loader.open(TrackLocation(source: first.name, key: "Music/a.mp3"))
        let range = try await onOwnThread { try source.readBytes(at: 1000, count: 4096) }
        source.cancel()
        await loader.shutdown()
        #expect(range == Array(try Data(contentsOf: file)[1000..<5096]))
        let targets = proxy.targets()
        let exchanges = try await rig.server.log()
        #expect(Set(targets) == [api, download], "\(targets)")
        #expect(targets.count <= exchanges.count, "no more connections than requests: \(targets.count) for \(exchanges.count)")
        await rig.server.stop()
    }
}

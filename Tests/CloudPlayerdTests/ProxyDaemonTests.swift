import Foundation
import Testing
import TestSupport

/// The daemon behind a proxy, as a user on a proxied network runs it: the environment's
/// `http_proxy` (with `HTTP_PROXY` set to a proxy that is not there, which curl ignores), a
/// WebDAV source and ListenBrainz reachable only through the proxy (names only the proxy
/// resolves), scanned, played and scrobbled at trace level with the proxy's password nowhere in
/// what was printed; and a proxy that refuses, said in `cloudplayerctl sources` and MPRIS `OpenUri`.
@Suite(.timeLimit(.minutes(4)))
struct ProxyDaemonTests {
    static let busName = "org.mpris.MediaPlayer2.cloudplayerd"
    static let dav = "dav.behind-proxy.test", listenBrainz = "lb.behind-proxy.test"

    struct Rig {
        let bus: DBusTestBus
        let daemon: ChildProcess
        let server: WebDAVTestServer

        init(proxy: ProxyTestServer, network: String = "", environment: [String: String] = [:], scrobble: String = "") async throws {
            server = try await WebDAVTestServer()
            _ = try server.publish(try await Fixtures.shared.url(.vbrMP3), as: "a.mp3")
            _ = try server.publish(try await Fixtures.shared.url(.cbrMP3), as: "b.mp3")
            let folder = try Fixtures.shared.scratchDirectory()
            let config = folder.appendingPathComponent("config.toml")
            try """
                [cache]
                dir = "\(folder.appendingPathComponent("cache").path)"
                [network]
                read_timeout = 5
                retries = 1
                \(network)
                \(scrobble)
                [[source]]
                name = "dav"
                type = "webdav"
                url = "http://\(ProxyDaemonTests.dav):\(server.port)/"
                username = "\(server.username)"
                password = "\(server.password)"
                """.write(to: config, atomically: true, encoding: .utf8)
            bus = try await DBusTestBus()
            daemon = try ChildProcess(BuiltProducts.cloudplayerd, ["daemon", "--output", "null", "--config", config.path, "--log-level", "trace"],
                                      environment: bus.environment.merging(environment) { $1 })
            #expect(try await bus.waitForName(ProxyDaemonTests.busName))
        }

        var target: String { "\(ProxyDaemonTests.dav):\(server.port)" }

        func track(_ name: String) -> String { "http://\(target)/\(name)" }

        func ctl(_ arguments: String...) async throws -> ProcessResult {
            try await bus.run(BuiltProducts.cloudplayerctl, arguments)
        }

        func openUri(_ location: String) async throws -> ProcessResult {
            try await bus.run("busctl", ["--address=\(bus.address)", "call", ProxyDaemonTests.busName, "/org/mpris/MediaPlayer2",
                                         "org.mpris.MediaPlayer2.Player", "OpenUri", "s", location])
        }

        func stop() async -> ProcessResult {
            daemon.signal(SIGTERM)
            let result = await daemon.wait()
            await bus.stop()
            return result
        }
    }

    @Test("http_proxy with Basic auth from the environment: scan, play and ListenBrainz all through tinyproxy; its password printed nowhere at trace level")
    func environmentProxy() async throws {
        let password = "proxy-pw-\(UUID().uuidString.prefix(8))"
        let proxy = try await ProxyTestServer(.tinyproxy, credentials: ("proxyuser", password), privateNames: [Self.dav, Self.listenBrainz])
        let token = "5ee6c0ae-token-of-alice"
        let service = try await ListenBrainzTestServer(tokens: [token: "alice"])
        let rig = try await Rig(proxy: proxy, environment: ["http_proxy": proxy.url(), "HTTP_PROXY": "http://127.0.0.1:9"],
                                scrobble: "[scrobble]\nlistenbrainz_url = \"http://\(Self.listenBrainz):\(service.port)\"\nlistenbrainz_token = \"\(token)\"")
        var printed = ""
        let scan = try await rig.ctl("scan")
        printed += scan.stdout + scan.stderr
        #expect(scan.status == 0, "\(scan.stdout) \(scan.stderr)")
        let sources = try await rig.ctl("sources")
        printed += sources.stdout + sources.stderr
        #expect(sources.stdout.split(separator: "\n").contains { $0.hasPrefix("dav ") && $0.contains(" 2 ") }, "\(sources.stdout)")
        let played = try await rig.ctl("queue", "add", "--play", rig.track("a.mp3"))
        printed += played.stdout + played.stderr
        #expect(played.status == 0, "\(played.stderr)")
        #expect(try await eventually { try await !service.state().playingNow.isEmpty }, "ListenBrainz heard of the track through the proxy")
        let daemon = await rig.stop()
        printed += daemon.stdout + daemon.stderr
        let targets = proxy.targets()
        let listenBrainzTarget = "\(Self.listenBrainz):\(service.port)"
        #expect(targets.contains(rig.target) && targets.contains(listenBrainzTarget), "\(targets)")
        #expect(targets.allSatisfy { $0 == rig.target || $0 == listenBrainzTarget }, "\(targets)")
        #expect(!printed.contains(password), "the proxy's password was printed")
        await service.stop()
        await proxy.stop()
    }

    @Test("a wrong proxy password from proxy_password_file: one error naming the proxy in the scan, `sources` and MPRIS OpenUri; the password printed nowhere")
    func refusingProxy() async throws {
        let proxy = try await ProxyTestServer(.tinyproxy, credentials: ("proxyuser", "right-\(UUID().uuidString.prefix(8))"), privateNames: [Self.dav])
        let wrong = "wrong-\(UUID().uuidString.prefix(8))"
        let passwordFile = try Fixtures.shared.scratchDirectory().appendingPathComponent("proxy.pass")
        try (wrong + "\n").write(to: passwordFile, atomically: true, encoding: .utf8)
        let rig = try await Rig(proxy: proxy, network: "proxy = \"http://proxyuser@127.0.0.1:\(proxy.port)\"\nproxy_password_file = \"\(passwordFile.path)\"")
        let said = "the proxy http://127.0.0.1:\(proxy.port) refused the connection (a wrong user name or password"
        let scan = try await rig.ctl("scan", "dav")
        #expect(scan.status != 0 && (scan.stdout + scan.stderr).contains(said), "\(scan.stdout) \(scan.stderr)")
        let sources = try await rig.ctl("sources", "--json")
        let rows = try JSONSerialization.jsonObject(with: Data(sources.stdout.utf8)) as? [[String: Any]] ?? []
        #expect(rows.contains { $0["name"] as? String == "dav" && ($0["problems"] as? String ?? "").contains(said) }, "\(sources.stdout)")
        let opened = try await rig.openUri(rig.track("b.mp3"))
        #expect(opened.status != 0 && opened.stderr.contains(said), "\(opened.stdout) \(opened.stderr)")
        let daemon = await rig.stop()
        for text in [scan.stdout, scan.stderr, sources.stdout, opened.stderr, daemon.stdout, daemon.stderr] {
            #expect(!text.contains(wrong))
        }
        #expect(!proxy.targets().isEmpty)
        await proxy.stop()
    }

    @Test("`cloudplayerctl login` goes through the environment's proxy: its token request is the proxy's one request; the proxy's password printed nowhere")
    func loginThroughProxy() async throws {
        let password = "proxy-pw-\(UUID().uuidString.prefix(8))"
        let proxy = try await ProxyTestServer(.tinyproxy, credentials: ("proxyuser", password))
        let server = try await DropboxTestServer()
        let rig = try await CloudCLIRig(sourcesText: server.sourcesText)
        let login = try ChildProcess(BuiltProducts.cloudplayerctl, ["login", "dbx", "--config", rig.config.path],
                                     environment: rig.bus.environment.merging(["http_proxy": proxy.url()]) { $1 })
        let address = try await rig.address(of: login, prefix: "\(server.apiURL.absoluteString)/oauth2/authorize?")
        #expect(try await CloudCLIRig.open(address).contains("login received"))
        await rig.loggedIn(login)
        let grants = try await server.log().filter { $0.path == "/oauth2/token" }
        #expect(grants.count == 1 && proxy.targets() == ["127.0.0.1:\(server.emulator.apiPort)"], "\(proxy.targets())")
        rig.daemon.signal(SIGTERM)
        let daemon = await rig.daemon.wait()
        await rig.bus.stop()
        #expect(!(rig.printed + daemon.stdout + daemon.stderr).contains(password))
        await proxy.stop()
    }
}

import Config
import Foundation
import Library
import Loader
import Model
import SourceTypes
import Testing
import TestSupport

/// Sources through real proxies — tinyproxy (HTTP, `CONNECT`, Basic auth) and pproxy (SOCKS5) —
/// with the proxies' own logs as the evidence. A source's server is named by a host name only the
/// proxy resolves (`ProxyTestServer`'s `privateNames`): a request that went around the proxy
/// could not have reached it, so a scan and a play that succeed went through it, every request.
@Suite(.timeLimit(.minutes(4)))
struct ProxyLoaderTests {
    static let hidden = "dav.behind-proxy.test"

    /// A WebDAV server with two tracks and a loader configured by `network` and `source` lines.
    struct Rig {
        let server: WebDAVTestServer
        let directory: URL
        let loader: LoaderActor
        let library: LibraryActor
        let host: String

        init(host: String = hidden, tls: Bool = false, trust: Bool = false, port: Int? = nil, network: String = "", source: String = "",
             environment: [String: String]? = nil) async throws {
            server = try await WebDAVTestServer(tls: tls, port: port)
            self.host = host
            directory = try Fixtures.shared.scratchDirectory()
            _ = try server.publish(try await Fixtures.shared.url(.vbrMP3), as: "a.mp3")
            _ = try server.publish(try await Fixtures.shared.url(.longOpus), as: "b.opus")
            let config = """
                [cache]
                dir = "\(directory.appendingPathComponent("cache").path)"
                [network]
                read_timeout = 5
                retries = 1
                \(network)
                [[source]]
                name = "dav"
                type = "webdav"
                url = "\(tls ? "https" : "http")://\(host):\(server.port)/"
                username = "\(server.username)"
                password = "\(server.password)"
                \(trust ? "tls_ca_file = \"\(server.certificate!.path)\"" : "")
                \(source)
                """
            var configuration = try LoaderConfiguration.parse(config, relativeTo: directory)
            if let environment {
                configuration.loader.proxy = ProxyRules(environment: environment, configured: configuration.loader.proxy.configured)
            }
            loader = LoaderActor(configuration: configuration)
            library = LibraryActor()
            try await library.openDatabase(at: directory.appendingPathComponent("library.sqlite"))
        }

        var target: String { "\(host):\(server.port)" }

        func url(_ name: String) -> URL {
            URL(string: "\(server.certificate == nil ? "http" : "https")://\(host):\(server.port)/\(name)")!
        }

        /// Scans the source and plays (reads whole) one track: both must work.
        func scanAndPlay() async throws {
            let report = try #require(await library.scan(["dav"], loader: loader).first)
            #expect(report.tracks == 2 && report.problems.isEmpty && !report.failed, "\(report)")
            let read = try await CloudLoaderTests().readAll(try await loader.open(url("a.mp3")))
            #expect(read == (try Data(contentsOf: try await Fixtures.shared.url(.vbrMP3))))
        }

        func close() async {
            await loader.shutdown()
        }
    }

    @Test("the hidden name is hidden: it does not resolve outside the proxy")
    func hiddenName() {
        var result: UnsafeMutablePointer<addrinfo>?
        #expect(getaddrinfo(Self.hidden, nil, nil, &result) != 0)
        if let result { freeaddrinfo(result) }
    }

    @Test("WebDAV through tinyproxy with Basic auth, the credentials in the URL or from proxy_password_file: scan and play, every request through it",
          arguments: [false, true])
    func webDAVThroughTinyproxy(passwordFile: Bool) async throws {
        let proxy = try await ProxyTestServer(.tinyproxy, credentials: ("proxyuser", "pp-\(UUID().uuidString.prefix(8))"), privateNames: [Self.hidden])
        var network = "proxy = \"\(proxy.url())\""
        if passwordFile {
            let file = try Fixtures.shared.scratchDirectory().appendingPathComponent("proxy.pass")
            try (proxy.password! + "\n").write(to: file, atomically: true, encoding: .utf8)
            network = "proxy = \"http://proxyuser@127.0.0.1:\(proxy.port)\"\nproxy_password_file = \"\(file.path)\""
        }
        let rig = try await Rig(network: network)
        try await rig.scanAndPlay()
        await rig.close()
        let requests = proxy.requests()
        #expect(!requests.isEmpty && requests.allSatisfy { $0.target == rig.target && $0.method != "CONNECT" }, "\(requests)")
        // Forwarded, as curl and mpv send an `http://` request through a proxy.
        #expect(proxy.logText().contains("GET http://\(rig.target)/a.mp3"))
        await proxy.stop()
    }

    @Test("an http:// WebDAV source through Squid with Debian's own squid.conf: scan and play, every request forwarded (its CONNECT rules would refuse a tunnel to this port)")
    func webDAVThroughSquid() async throws {
        let proxy = try await ProxyTestServer(.squid, privateNames: [Self.hidden])
        let rig = try await Rig(network: "proxy = \"\(proxy.url())\"")
        try await rig.scanAndPlay()
        await rig.close()
        // Squid logs a request once it has ended.
        #expect(try await eventually(within: 30) { proxy.requests().contains { $0.method == "GET" } }, "\(proxy.logText())")
        let requests = proxy.requests()
        #expect(requests.allSatisfy { $0.target == rig.target && $0.method != "CONNECT" && !$0.result.contains("DENIED") }, "\(requests)")
        await proxy.stop()
    }

    @Test("an https:// WebDAV source on port 443 through Squid with Debian's rules: a CONNECT tunnel, which those rules allow to 443")
    func httpsThroughSquid() async throws {
        let proxy = try await ProxyTestServer(.squid, privateNames: [Self.hidden])
        let rig = try await Rig(tls: true, trust: true, port: 443, network: "proxy = \"\(proxy.url())\"")
        try await rig.scanAndPlay()
        await rig.close()
        #expect(try await eventually(within: 30) { !proxy.requests().isEmpty }, "\(proxy.logText())")
        let requests = proxy.requests()
        #expect(requests.allSatisfy { $0.method == "CONNECT" && $0.target == "\(Self.hidden):443" && $0.result.hasPrefix("TCP_TUNNEL") },
                "\(requests)")
        await proxy.stop()
    }

    @Test("proxy_password_command runs once for all the requests of a scan and a play through the proxy")
    func proxyPasswordReadOnce() async throws {
        let proxy = try await ProxyTestServer(.tinyproxy, credentials: ("proxyuser", "pp-\(UUID().uuidString.prefix(8))"), privateNames: [Self.hidden])
        let runs = try Fixtures.shared.scratchDirectory().appendingPathComponent("runs")
        let rig = try await Rig(network: "proxy = \"http://proxyuser@127.0.0.1:\(proxy.port)\"\n"
                                    + "proxy_password_command = \"echo run >> '\(runs.path)'; echo '\(proxy.password!)'\"")
        try await rig.scanAndPlay()
        await rig.close()
        #expect(proxy.targets().count > 1, "\(proxy.targets())")
        let count = try String(contentsOf: runs, encoding: .utf8).split(separator: "\n").count
        #expect(count == 1, "the command ran \(count) times")
        await proxy.stop()
    }

    @Test("an HTTPS server through tinyproxy: CONNECT host:port in its log; an untrusted certificate is one error naming the server and the settings")
    func httpsThroughConnect() async throws {
        let proxy = try await ProxyTestServer(.tinyproxy, privateNames: [Self.hidden])
        let strict = try await Rig(tls: true, network: "proxy = \"\(proxy.url())\"")
        let error = await #expect(throws: LoaderError.self) { try await strict.loader.open(strict.url("a.mp3")) }
        await strict.close()
        let message = "\(String(describing: error))"
        #expect(message.contains("the certificate of https://\(strict.target) is not trusted"), "\(message)")
        #expect(message.contains("update-ca-certificates") && message.contains("tls_ca_file for source 'dav'"), "\(message)")
        #expect(!message.contains("the proxy"), "\(message)")

        let trusted = try await Rig(tls: true, trust: true, network: "proxy = \"\(proxy.url())\"")
        try await trusted.scanAndPlay()
        await trusted.close()
        let targets = proxy.targets()
        #expect(targets.contains(trusted.target) && targets.allSatisfy { $0 == strict.target || $0 == trusted.target }, "\(targets)")
        #expect(proxy.logText().contains("CONNECT \(trusted.target) HTTP/1.1"))
        await proxy.stop()
    }

    @Test("SOCKS5 through pproxy: scan and play, every connection in its log")
    func socks5() async throws {
        let proxy = try await ProxyTestServer(.socks5, privateNames: [Self.hidden])
        let rig = try await Rig(network: "proxy = \"\(proxy.url())\"")
        try await rig.scanAndPlay()
        await rig.close()
        let targets = proxy.targets()
        #expect(!targets.isEmpty && targets.allSatisfy { $0 == rig.target }, "\(targets)")
        await proxy.stop()
    }
}

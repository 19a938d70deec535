import Config
import Foundation
import Library
import Loader
import Model
import SourceTypes
import Testing
import TestSupport

/// Every source type through both real proxies — tinyproxy with Basic auth (`CONNECT`) and
/// pproxy (SOCKS5) — each proxy's own log the evidence: a scan (or, for `http`, which cannot
/// list, a URL) and a range of a track read, and the log naming exactly the source's servers.
/// Where the server takes any host name, it is named by one only the proxy resolves
/// (`ProxyTestServer`'s `privateNames`), so a request that went around the proxy could not have
/// reached it. The clouds, and their OAuth logins, are in `+Clouds`.
@Suite(.timeLimit(.minutes(4)))
struct ProxyMatrixTests {
    enum SourceKind: String, CaseIterable, Sendable { case webdav, http, feed, s3, subsonic, radio }

    static let proxies: [ProxyTestServer.Kind] = [.tinyproxy, .socks5]

    /// tinyproxy with Basic auth, or pproxy, which resolves `privateNames` alone.
    static func proxy(_ kind: ProxyTestServer.Kind, privateNames: [String] = []) async throws -> ProxyTestServer {
        try await ProxyTestServer(kind, credentials: kind == .tinyproxy ? ("proxyuser", "pp-\(UUID().uuidString.prefix(8))") : nil,
                                  privateNames: privateNames)
    }

    /// A source's servers, started: its `[[source]]` table, the `host:port`s the proxy must be
    /// asked for, the URL to read when the type cannot scan, and how to stop what stops.
    struct Served {
        var table: String
        var targets: Set<String>
        var url: URL?
        var stop: @Sendable () async -> Void = {}
    }

    static func serve(_ kind: SourceKind) async throws -> Served {
        let host = "\(kind.rawValue).behind-proxy.test"
        let track = try await Fixtures.shared.url(.vbrMP3)
        switch kind {
        case .webdav, .http:
            let dav = try await WebDAVTestServer()
            let root = "http://\(host):\(dav.port)/"
            _ = try dav.publish(track, as: "a.mp3")
            let table = """
                [[source]]
                name = "src"
                type = "\(kind.rawValue)"
                url = "\(root)"
                username = "\(dav.username)"
                password = "\(dav.password)"
                """
            return Served(table: table, targets: ["\(host):\(dav.port)"], url: kind == .http ? URL(string: "\(root)a.mp3") : nil)
        case .feed:
            // A public feed; its enclosure on its own server goes without credentials (as any feed's).
            let server = try await LoggingHTTPServer()
            let root = "http://\(host):\(server.port)/"
            try server.publish(try Data(contentsOf: track), at: "a.mp3")
            try server.publish(UntrustedLinkTests.feed(["\(root)a.mp3"]), at: "feed.xml")
            let table = """
                [[source]]
                name = "src"
                type = "feed"
                url = "\(root)feed.xml"
                """
            return Served(table: table, targets: ["\(host):\(server.port)"], stop: { await server.stop() })
        case .s3:
            // moto takes a host name for a virtual-hosted bucket's: S3 is reached at its address,
            // and only the proxy's log shows the way.
            let s3 = try await S3TestServer(checksSignatures: false)  // moto misjudges `delimiter=/` listings (S3SourceTests)
            try await s3.upload([("a/a.mp3", track)])
            let table = """
                [[source]]
                name = "src"
                type = "s3"
                endpoint = "http://127.0.0.1:\(s3.port)"
                bucket = "\(s3.bucket)"
                region = "us-east-1"
                access_key_id = "\(s3.accessKeyID)"
                secret_access_key = "\(s3.secretAccessKey)"
                path_style = true
                """
            return Served(table: table, targets: ["127.0.0.1:\(s3.port)"], stop: { await s3.stop() })
        case .subsonic:
            let subsonic = try await SubsonicTestServer()
            _ = try subsonic.publish(track, as: "x/a.mp3")
            try await subsonic.scan()
            let table = """
                [[source]]
                name = "src"
                type = "subsonic"
                url = "http://\(host):\(subsonic.port)/"
                username = "\(subsonic.username)"
                password = "\(subsonic.password)"
                """
            return Served(table: table, targets: ["\(host):\(subsonic.port)"], stop: { await subsonic.stop() })
        case .radio:
            // A station list at a URL naming a SHOUTcast 1 station on another server, both behind the proxy.
            let list = try await LoggingHTTPServer(), station = try await ProxyLoaderTests.icyStation()
            let stream = "station.behind-proxy.test:\(station.port)"
            try list.publish(Data("#EXTM3U\n#EXTINF:-1,Behind\nhttp://\(stream)/stream\n".utf8), at: "stations.m3u")
            let table = """
                [[source]]
                name = "src"
                type = "radio"
                stations = "http://\(host):\(list.port)/stations.m3u"
                """
            return Served(table: table, targets: ["\(host):\(list.port)", stream], stop: {
                await station.stop()
                await list.stop()
            })
        }
    }

    @Test("every source type through tinyproxy (Basic auth) and SOCKS5: a scan and a range of a track, the proxy's log naming the source's servers and nothing else",
          arguments: SourceKind.allCases, proxies)
    func source(kind: SourceKind, proxyKind: ProxyTestServer.Kind) async throws {
        let proxy = try await Self.proxy(proxyKind, privateNames: ["\(kind.rawValue).behind-proxy.test", "station.behind-proxy.test"])
        let served = try await Self.serve(kind)
        let folder = try Fixtures.shared.scratchDirectory()
        let configuration = try LoaderConfiguration.parse("""
            [cache]
            dir = "\(folder.appendingPathComponent("cache").path)"
            [network]
            read_timeout = 5
            retries = 1
            proxy = "\(proxy.url())"
            \(served.table)
            """, relativeTo: folder)
        let loader = LoaderActor(configuration: configuration)
        let library = LibraryActor()
        try await library.openDatabase(at: folder.appendingPathComponent("library.sqlite"))
        let location: TrackLocation
        if let url = served.url {
            location = await loader.sources.location(of: url)
        } else {
            let report = try #require(await library.scan(["src"], loader: loader).first)
            #expect(report.tracks == 1 && report.problems.isEmpty && !report.failed, "\(report)")
            let track = try #require(try await library.tracks(TrackFilter()).first)
            location = await loader.sources.location(of: track.url, recordedBy: track.source)
        }
        let source = try await loader.open(location)
        // A station is endless and read from its start; a file from within.
        let range = try await onOwnThread { try source.readBytes(at: kind == .radio ? 0 : 1000, count: 4096) }
        source.cancel()
        await loader.shutdown()
        #expect(range.count == 4096)
        if kind != .radio {
            #expect(range == Array(try Data(contentsOf: try await Fixtures.shared.url(.vbrMP3))[1000..<5096]))
        }
        let targets = proxy.targets()
        #expect(Set(targets) == served.targets, "\(targets)")
        #expect(targets.count <= 8, "a connection or two a server, reused: \(targets)")
        await served.stop()
        await proxy.stop()
    }
}

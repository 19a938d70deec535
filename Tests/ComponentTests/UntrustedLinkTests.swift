import ComponentTestSupport
import Config
import Foundation
import Library
import Loader
import Model
import SourceTypes
import Testing
import TestSupport

/// Links a remote document names (issue 27's security review): a feed's enclosures, a station
/// list's entries, redirects they lead to. Against real servers on 127.0.0.1 whose own request
/// logs show what was asked, and with which credentials.
@Suite(.timeLimit(.minutes(3)))
struct UntrustedLinkTests {
    /// A loader and a library for `config` (cache and library in a scratch folder).
    private static func rig(_ config: String) async throws -> (LoaderActor, LibraryActor) {
        let directory = try Fixtures.shared.scratchDirectory()
        let loader = LoaderActor(configuration: try LoaderConfiguration.parse("""
            [cache]
            dir = "\(directory.appendingPathComponent("cache").path)"
            \(config)
            """, relativeTo: directory))
        let library = LibraryActor()
        try await library.openDatabase(at: directory.appendingPathComponent("library.sqlite"))
        return (loader, library)
    }

    static func feed(_ enclosures: [String]) -> Data {
        Data("""
            <?xml version="1.0" encoding="UTF-8"?>
            <rss version="2.0"><channel><title>Cast</title>
            \(enclosures.enumerated().map { "<item><title>E\($0.offset)</title><enclosure url=\"\($0.element)\" type=\"audio/mpeg\" length=\"1000\"/></item>" }.joined())
            </channel></rss>
            """.utf8)
    }

    @Test("a feed's enclosures on 127.0.0.1 (another server), 169.254.169.254 and names of this machine are never requested, each with one clear error")
    func feedNamesThisMachine() async throws {
        let origin = try await LoggingHTTPServer()
        let local = try await LoggingHTTPServer()
        // Typed step by step: as one expression it took the type checker 8 s.
        let hosts: [[Substring]] = try String(contentsOfFile: "/etc/hosts", encoding: .utf8).split(separator: "\n")
            .map { $0.split(whereSeparator: \.isWhitespace) }
        let loopbackEntry: [Substring]? = hosts.first { $0.count > 1 && $0[0].hasPrefix("127.") && $0[1] != "localhost" }
        let machineName: Substring = try #require(loopbackEntry?[1], "a name of this machine that resolves to loopback")
        let links = ["http://127.0.0.1:\(local.port)/admin/delete?all=1.mp3", "http://169.254.169.254/latest/meta-data/iam.mp3",
                     "http://localhost:\(local.port)/x.mp3", "http://\(machineName):\(local.port)/named.mp3",
                     "http://2130706433:\(local.port)/decimal.mp3", "http://[::ffff:127.0.0.1]:\(local.port)/mapped.mp3",
                     "http://10.0.0.1/lan.mp3", "http://[fe80::1]/link.mp3"]
        try origin.publish(Self.feed(links), at: "feed.xml")
        let (loader, library) = try await Self.rig("""
            [[source]]
            name = "pods"
            type = "feed"
            url = "\(origin.baseURL.absoluteString)feed.xml"
            """)
        let report = try #require(await library.scan(["pods"], loader: loader).first)
        #expect(!report.failed && report.tracks == links.count, "\(report)")
        let sources = await loader.sources
        let tracks = try await library.tracks(TrackFilter())
        #expect(tracks.count == links.count)
        for track in tracks {
            // As a client's QueueAdd of the library track places it.
            let location = sources.location(of: track.url, recordedBy: track.source)
            #expect(location.namedBy == "pods" && location.source == nil, "\(location)")
            await #expect {
                _ = try await loader.open(location)
            } throws: { error in
                guard case LoaderError.privateLink = error else { return false }
                return "\(error)".contains("refused: a remote document") && "\(error)".contains("allow_private_links")
            }
        }
        let localAsked = try local.requests()
        #expect(localAsked.isEmpty, "the local service was asked: \(localAsked)")
        await loader.shutdown()
        await origin.stop()
        await local.stop()
    }

    @Test("an enclosure below the WebDAV source's URL is fetched without its Authorization; the feed's own is fetched")
    func feedNamesAnotherSource() async throws {
        let origin = try await LoggingHTTPServer()
        let dav = try await LoggingHTTPServer()
        let audio = try Data(contentsOf: try await Fixtures.shared.url(.cbrMP3))
        try dav.publish(audio, at: "dav/secret.mp3")
        try origin.publish(audio, at: "own.mp3")
        try origin.publish(Self.feed(["\(dav.baseURL.absoluteString)dav/secret.mp3", "\(origin.baseURL.absoluteString)own.mp3"]), at: "feed.xml")
        let (loader, library) = try await Self.rig("""
            [network]
            allow_private_links = true
            [[source]]
            name = "dav"
            type = "webdav"
            url = "\(dav.baseURL.absoluteString)dav/"
            username = "anna"
            password = "not-for-feeds"
            [[source]]
            name = "pods"
            type = "feed"
            url = "\(origin.baseURL.absoluteString)feed.xml"
            """)
        _ = await library.scan(["pods"], loader: loader)
        let sources = await loader.sources
        for track in try await library.tracks(TrackFilter()) {
            let location = sources.location(of: track.url, recordedBy: track.source)
            #expect(location.source == nil, "\(location)")
            #expect(try await loader.open(location).readWhole() == audio)
        }
        let asked = try dav.requests()
        #expect(asked.contains { $0.path == "/dav/secret.mp3" }, "\(asked)")
        #expect(!asked.contains { $0.authorized }, "the WebDAV source's credentials went with a feed's link: \(asked)")
        #expect(try origin.requests().contains { $0.path == "/own.mp3" })
        await loader.shutdown()
        await origin.stop()
        await dav.stop()
    }

    @Test("a remote station list naming 127.0.0.1 or 169.254.169.254 is refused; a local one may name 127.0.0.1")
    func stationLists() async throws {
        let origin = try await LoggingHTTPServer()
        let local = try await LoggingHTTPServer()
        let audio = try Data(contentsOf: try await Fixtures.shared.url(.cbrMP3))
        try local.publish(audio, at: "song.mp3")
        let entries = "#EXTM3U\nhttp://169.254.169.254/latest/meta-data/\nhttp://127.0.0.1:\(local.port)/song.mp3\n"
        try origin.publish(Data(entries.utf8), at: "list.m3u")
        let (loader, _) = try await Self.rig("")
        // The user names the remote list (as OpenUri does); its entries are its links.
        await #expect {
            _ = try await loader.open(TrackLocation(url: origin.baseURL.appendingPathComponent("list.m3u")))
        } throws: { error in
            "\(error)".contains("no entry of the station list plays") && "\(error)".contains("127.0.0.1, a loopback address")
        }
        let localAsked = try local.requests()
        #expect(localAsked.isEmpty, "\(localAsked)")
        // The same list as a file of this machine names what it likes.
        let file = try Fixtures.shared.scratchDirectory().appendingPathComponent("list.m3u")
        try Data("#EXTM3U\nhttp://127.0.0.1:\(local.port)/song.mp3\n".utf8).write(to: file)
        #expect(try await loader.open(TrackLocation(url: file)).readWhole() == audio)
        #expect(try local.requests().contains { $0.path == "/song.mp3" })
        await loader.shutdown()
        await origin.stop()
        await local.stop()
    }

    @Test("a radio source's station list on a server may not name 127.0.0.1 or 169.254.169.254; a station of the config file may")
    func radioStationList() async throws {
        let origin = try await LoggingHTTPServer()
        let local = try await LoggingHTTPServer()
        let mine = try await LoggingHTTPServer()
        try origin.publish(Data("#EXTM3U\n#EXTINF:-1,Local\nhttp://127.0.0.1:\(local.port)/listed\n#EXTINF:-1,Metadata\nhttp://169.254.169.254/\n".utf8),
                           at: "stations.m3u")
        let (loader, library) = try await Self.rig("""
            [[source]]
            name = "radio"
            type = "radio"
            stations = "\(origin.baseURL.absoluteString)stations.m3u"
            [[source.station]]
            name = "Mine"
            url = "http://127.0.0.1:\(mine.port)/configured"
            """)
        let report = try #require(await library.scan(["radio"], loader: loader).first)
        #expect(!report.failed && report.tracks == 3, "\(report)")
        for station in ["http://127.0.0.1:\(local.port)/listed", "http://169.254.169.254/"] {
            await #expect {
                _ = try await loader.open(TrackLocation(source: "radio", key: station))
            } throws: { error in
                if case LoaderError.privateLink = error { return true }
                return false
            }
        }
        let localAsked = try local.requests()
        #expect(localAsked.isEmpty, "\(localAsked)")
        // The config file's own station is asked (the test server has no stream there: it fails after).
        _ = try? await loader.open(TrackLocation(source: "radio", key: "http://127.0.0.1:\(mine.port)/configured"))
        #expect(try mine.requests().map(\.path) == ["/configured"])
        await loader.shutdown()
        await origin.stop()
        await local.stop()
        await mine.stop()
    }

    @Test("a redirect from an allowed server to 127.0.0.1 is refused before it is followed")
    func redirectToThisMachine() async throws {
        let origin = try await LoggingHTTPServer()
        let local = try await LoggingHTTPServer()
        try local.publish(Data("secret".utf8), at: "secret.mp3")
        try origin.publish(Data("http://127.0.0.1:\(local.port)/secret.mp3".utf8), at: "go.mp3.redirect")
        // The origin stands for a public server: its port is let through, every other target checked.
        let port = origin.port
        let transport = try HTTPTransport(name: "web", readTimeout: 10, proxy: .direct, checkingTargets: { url in
            url.port == port ? false : try await PrivateAddresses.refuse(url)
        })
        await #expect {
            _ = try await transport.send(origin.baseURL.appendingPathComponent("go.mp3"), method: .GET)
        } throws: { error in
            guard case LoaderError.privateLink(let host, let kind) = error else { return false }
            return host == "127.0.0.1" && kind == "loopback"
        }
        #expect(try origin.requests().map(\.path) == ["/go.mp3"])
        let localAsked = try local.requests()
        #expect(localAsked.isEmpty, "the redirect was followed: \(localAsked)")
        await transport.shutdown()
        await origin.stop()
        await local.stop()
    }

    @Test("a name that passed the check and then leads to this machine (DNS rebinding) is refused once connected, before the request is sent")
    func connectedAddressChecked() async throws {
        let local = try await LoggingHTTPServer()
        try local.publish(Data("secret".utf8), at: "secret.mp3")
        // The check says the target passed as a public address: what the connection reached is
        // checked as well, and here it is 127.0.0.1, as a rebound name's second answer would be.
        let transport = try HTTPTransport(name: "web", readTimeout: 10, proxy: .direct, checkingTargets: { _ in true })
        await #expect {
            _ = try await transport.send(local.baseURL.appendingPathComponent("secret.mp3"), method: .GET)
        } throws: { error in
            guard case LoaderError.privateLink(let host, let kind) = error else { return false }
            return host == "127.0.0.1" && kind == "loopback"
        }
        let asked = try local.requests()
        #expect(asked.isEmpty, "the request was sent: \(asked)")
        await transport.shutdown()
        await local.stop()
    }

    @Test("which addresses are this machine's or its network's, by literal and by name")
    func addresses() async throws {
        let refused = ["127.0.0.1", "127.8.9.10", "[::1]", "localhost", "LOCALHOST", "foo.localhost", "0.0.0.0", "10.1.2.3", "172.16.0.1",
                       "172.31.255.255", "192.168.1.1", "169.254.169.254", "[fe80::1]", "[fd12::1]", "[::ffff:10.0.0.1]", "2130706433", "0x7f.1"]
        for host in refused {
            await #expect("\(host)") {
                try await PrivateAddresses.refuse(URL(string: "http://\(host)/x")!)
            } throws: { error in
                if case LoaderError.privateLink = error { return true }
                return false
            }
        }
        for host in ["93.184.216.34", "172.32.0.1", "11.0.0.1", "[2606:4700::1]", "192.169.0.1"] {
            await #expect(throws: Never.self, "\(host)") { try await PrivateAddresses.refuse(URL(string: "http://\(host)/x")!) }
        }
    }

    @Test("a name this machine cannot resolve: unreachable when straight, passed to a proxy that resolves it; an address literal is checked either way")
    func unresolvedThroughProxy() async throws {
        let proxy = ProxyRules(environment: [:], configured: .server(try ProxyServer.parse("socks5h://127.0.0.1:9")))
        let hidden = URL(string: "http://nowhere.behind-proxy.test/x")!
        await #expect(throws: LoaderError.self) { try await PrivateAddresses.refuse(hidden) }
        await #expect(throws: Never.self) { try await PrivateAddresses.refuse(hidden, proxy: proxy) }
        await #expect {
            try await PrivateAddresses.refuse(URL(string: "http://127.0.0.1/x")!, proxy: proxy)
        } throws: { error in
            if case LoaderError.privateLink = error { return true }
            return false
        }
    }
}

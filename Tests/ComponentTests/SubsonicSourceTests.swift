import Config
import Foundation
import Library
import Loader
import Model
import MPRIS
import Output
import Parsers
import Playback
import SourceTypes
import SubsonicAnswers
import Testing
import TestSupport

/// The `subsonic` source against a real Subsonic server (Supysonic, API 1.12.0: the hex
/// password is its only way in), behind the fault proxy that counts what it sends.
@Suite(.timeLimit(.minutes(3)))
struct SubsonicSourceTests {
    /// One Supysonic for the suite, with four tagged files in three albums (its start and
    /// scan take seconds).
    private static let server = Task { () throws -> SubsonicTestServer in
        let server = try await SubsonicTestServer()
        try server.publish(try await Fixtures.shared.url(.vbrMP3), as: "Some Artist/Some Album/vbr.mp3")
        try server.publish(try await Fixtures.shared.url(.opus), as: "Opus Artist/Opus Album/stereo.opus")
        try server.publish(try await Fixtures.shared.url(.coverArt), as: "Opus Artist/Opus Album/cover.png")
        try server.publish(try await Fixtures.shared.url(.flac), as: "FLAC Artist/FLAC Album/song.flac")
        try server.publish(try await Fixtures.shared.url(.longMP3), as: "Some Artist/Some Album/long.mp3")
        try await server.scan()
        return server
    }

    /// The server, a proxy in front of it, a loader and a library pointed at it.
    private struct Rig {
        let server: SubsonicTestServer
        let proxy: FaultProxy
        let directory: URL
        let library: LibraryActor
        let loader: LoaderActor

        /// `credentials`: the source's lines of them, instead of the right username and password.
        /// `extra`: more lines of the source (`format`).
        init(password: String? = nil, credentials: String? = nil, extra: String = "") async throws {
            server = try await SubsonicSourceTests.server.value
            proxy = try FaultProxy(originPort: server.port)
            directory = try Fixtures.shared.scratchDirectory()
            loader = try Self.loader(proxy: proxy, server: server, password: password, directory: directory, credentials: credentials,
                                     extra: extra)
            library = LibraryActor()
            try await library.openDatabase(at: directory.appendingPathComponent("library.sqlite"))
        }

        static func loader(proxy: FaultProxy, server: SubsonicTestServer, password: String?, directory: URL,
                           credentials: String? = nil, extra: String = "") throws -> LoaderActor {
            let passwordFile = directory.appendingPathComponent("sub.pass")
            try (password ?? server.password).write(to: passwordFile, atomically: true, encoding: .utf8)
            let config = """
                [cache]
                dir = "\(directory.appendingPathComponent("cache").path)"
                [network]
                read_timeout = 5
                retries = 2
                [[source]]
                name = "sub"
                type = "subsonic"
                url = "\(proxy.baseURL.absoluteString)"
                \(credentials ?? "username = \"\(server.username)\"\npassword_file = \"\(passwordFile.path)\"")
                \(extra)
                """
            return LoaderActor(configuration: try LoaderConfiguration.parse(config, relativeTo: directory))
        }

        /// Every secret a request of ours may carry, in every spelling it may take.
        var secrets: [String] {
            let hex = server.password.utf8.map { String(format: "%02x", $0) }.joined()
            return [server.password, hex, "apiKey"]
        }
    }

    @Test("a scan takes every track's tags from the server — no byte of audio is read — and its albums become folders")
    func scan() async throws {
        let rig = try await Rig()
        let report = try #require(await rig.library.scan(["sub"], loader: rig.loader).first)
        #expect(!report.failed && report.problems.isEmpty, "\(report)")
        #expect(report.tracks == 4 && report.tagsRead == 0 && report.bytesFetched == 0, "\(report)")
        #expect(!rig.proxy.log.contains { $0.path.contains("/rest/download") || $0.path.contains("/rest/stream") })

        let tracks = try await rig.library.tracks(TrackFilter(source: "sub"))
        #expect(tracks.count == 4)
        let vbr = try #require(tracks.first { $0.title == "Vbr Title" })
        #expect(vbr.artist == "Some Artist" && vbr.album == "Some Album" && vbr.trackNumber == 3 && vbr.codec == "MP3")
        #expect((vbr.duration ?? 0) >= 5 && (vbr.size ?? 0) > 0)
        #expect(vbr.url.hasPrefix("cloudplayer://sub/song/"))
        let opus = try #require(tracks.first { $0.title == "Opus Title" })
        #expect(opus.artist == "Opus Artist" && opus.album == "Opus Album" && opus.codec == "Opus")
        #expect(tracks.contains { $0.title == "FLAC Title" && $0.album == "FLAC Album" })

        let albums = try await rig.library.playlists().filter { $0.playlist.kind == .folder && $0.playlist.source == "sub" }
        // long.mp3 has no tags: Supysonic files it under an album of its own making.
        #expect(albums.count == 4 && Set(albums.map(\.playlist.name)).isSuperset(of: ["Some Album", "Opus Album", "FLAC Album"]))
        #expect(albums.first { $0.playlist.name == "Some Album" }?.count == 1)

        // A second scan: nothing changed, nothing is written again, still no audio read.
        rig.proxy.clearLog()
        let again = try #require(await rig.library.scan(["sub"], loader: rig.loader).first)
        #expect(!again.failed && again.tracks == 4 && again.gone == 0 && again.tagsRead == 0, "\(again)")
        // One page of albums, the list of playlists, then one request per album and playlist: the
        // API version was learned by the first scan.
        let log = await rig.proxy.settledLog()
        #expect(log.count == 2 + again.playlists, "\(log.map(\.path))")
        await rig.loader.shutdown()
    }

    @Test("a server playlist becomes a library playlist, its songs in the server's order")
    func playlists() async throws {
        let rig = try await Rig()
        _ = await rig.library.scan(["sub"], loader: rig.loader)
        let tracks = try await rig.library.tracks(TrackFilter(source: "sub"))
        let ids = [try #require(tracks.first { $0.title == "Opus Title" }), try #require(tracks.first { $0.title == "Vbr Title" })]
            .map { String($0.url.split(separator: "/").last!) }
        let name = "Road \(UUID().uuidString.prefix(6))"
        try await rig.server.call("createPlaylist", [("name", name)] + ids.map { ("songId", $0) })
        let report = try #require(await rig.library.scan(["sub"], loader: rig.loader).first)
        #expect(!report.failed, "\(report)")
        let playlist = try await rig.library.playlist(name)
        #expect(playlist.kind == .file && playlist.source == "sub")
        let entries = try await rig.library.entries(of: playlist)
        #expect(entries.map { $0.track?.title } == ["Opus Title", "Vbr Title"])
        await rig.loader.shutdown()
    }

    @Test("a track plays through download with a seek, byte for byte; a replay from the cache sends no byte")
    func playAndReplay() async throws {
        let rig = try await Rig()
        _ = await rig.library.scan(["sub"], loader: rig.loader)
        let track = try #require(try await rig.library.tracks(TrackFilter(source: "sub")).first { $0.size ?? 0 > 500_000 })
        let location = TrackLocation(uri: track.url)
        let origin = try Data(contentsOf: rig.server.music.appendingPathComponent("Some Artist/Some Album/long.mp3"))

        let source = try await rig.loader.open(location)
        #expect(source.length == Int64(origin.count))
        let offset = origin.count * 3 / 4
        #expect(try await onOwnThread { try source.readBytes(at: Int64(offset), count: 5000) } == Array(origin[offset..<offset + 5000]))
        #expect(try await readAll(source) == origin)
        await rig.loader.shutdown()
        let downloads = await rig.proxy.settledLog().filter { $0.path.contains("/rest/download") && $0.method == "GET" }
        #expect(downloads.allSatisfy { $0.status == 206 && $0.range != nil })
        #expect(downloads.reduce(0) { $0 + $1.bodyBytes } <= origin.count + origin.count / 50, "each byte about once")
        #expect(try CacheInspector(cacheDirectory: rig.directory.appendingPathComponent("cache")).holdsWhole(origin))

        rig.proxy.clearLog()
        let again = try Rig.loader(proxy: rig.proxy, server: rig.server, password: nil, directory: rig.directory)
        #expect(try await readAll(try await again.open(location)) == origin)
        await again.shutdown()
        let sent = await rig.proxy.settledLog().filter { $0.path.contains("/rest/download") && $0.method == "GET" }.reduce(0) { $0 + $1.bodyBytes }
        #expect(sent == 0, "a replay sends no byte of the track")
    }

    @Test("playing a track tells the server: now playing as it starts, then a play once it has been heard")
    func scrobble() async throws {
        let rig = try await Rig()
        _ = await rig.library.scan(["sub"], loader: rig.loader)
        let track = try #require(try await rig.library.tracks(TrackFilter(source: "sub")).first { $0.title == "Opus Title" })
        let id = String(track.url.split(separator: "/").last!)
        let player = Player.running(loader: rig.loader, output: OutputActor(device: NullOutput(paced: false)))
        let events = EventLog(player)
        await player.perform(.add([QueueItem(location: TrackLocation(uri: track.url))], at: .end, play: true))
        _ = try await events.next("the end of the queue") { if case .queueFinished = $0.change { true } else { false } }
        // Reported without holding up playback: the second call may still be on its way.
        var scrobbles: [FaultProxy.Exchange] = []
        for _ in 0..<600 {
            scrobbles = await rig.proxy.settledLog().filter { $0.path.contains("/rest/scrobble") }
            if scrobbles.count >= 2 { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        await player.shutdown()
        // One of each (sent as they happen, so a track played unpaced may have them cross).
        #expect(scrobbles.filter { $0.path.contains("submission=false") }.count == 1, "\(scrobbles.map(\.path))")
        #expect(scrobbles.filter { $0.path.contains("submission=true") }.count == 1)
        #expect(scrobbles.allSatisfy { $0.path.contains("id=\(id)") && $0.status == 200 })
    }

    @Test("a track without art of its own shows its album's cover as the server keeps it, from a local file")
    func coverArt() async throws {
        let rig = try await Rig()
        _ = await rig.library.scan(["sub"], loader: rig.loader)
        let tracks = try await rig.library.tracks(TrackFilter(source: "sub"))
        let opus = TrackLocation(uri: try #require(tracks.first { $0.title == "Opus Title" }).url)
        let bare = TrackLocation(uri: try #require(tracks.first { $0.title == "Vbr Title" }).url)
        #expect(await rig.loader.sourceArtwork(of: bare) == nil, "a song without a cover has none")

        let player = Player.running(loader: rig.loader, output: OutputActor(device: NullOutput()))
        let events = EventLog(player)
        await player.perform(.add([QueueItem(location: opus)], at: .end, play: true))
        let event = try await events.next("cover art, or the end") {
            switch $0.change {
            case .artworkReady, .queueFinished: true
            default: false
            }
        }
        await player.shutdown()
        guard case .artworkReady(_, let file) = event.change else {
            Issue.record("no cover art came while the track played")
            return
        }
        #expect(file.isFileURL && !file.path.contains(rig.server.password))
        #expect(try Data(contentsOf: file) == Data(contentsOf: try await Fixtures.shared.url(.coverArt)))
    }

    @Test("format = \"opus\": a song plays as the server's transcode — no length, no ranges — cached once whole; a replay sends nothing")
    func transcode() async throws {
        let extra = "format = \"opus\"\nmax_bitrate = 64"
        let rig = try await Rig(extra: extra)
        _ = await rig.library.scan(["sub"], loader: rig.loader)
        let track = try #require(try await rig.library.tracks(TrackFilter(source: "sub")).first { $0.title == "Vbr Title" })
        #expect(track.url.contains("/stream/opus-64/") && track.codec == "Opus" && track.size == nil)
        let location = TrackLocation(uri: track.url)
        let source = try await rig.loader.open(location)
        let bytes = try await readAll(source)
        #expect(Int64(bytes.count) == source.length && bytes.starts(with: Data("OggS".utf8)))
        #expect(bytes.range(of: Data("OpusHead".utf8)) != nil)
        #expect(await rig.loader.isCached(location))
        await rig.loader.shutdown()
        let streams = await rig.proxy.settledLog().filter { $0.path.contains("/rest/stream") }
        #expect(streams.count == 1 && streams.allSatisfy { $0.status == 200 && $0.path.contains("format=opus") && $0.path.contains("maxBitRate=64") },
                "\(streams.map(\.path))")

        rig.proxy.clearLog()
        let again = try Rig.loader(proxy: rig.proxy, server: rig.server, password: nil, directory: rig.directory, extra: extra)
        #expect(try await readAll(try await again.open(location)) == bytes)
        await again.shutdown()
        #expect(!(await rig.proxy.settledLog()).contains { $0.path.contains("/rest/stream") }, "a replay asks for no transcode")
    }

    @Test("a wrong password is one error naming the source and Subsonic's code 40; no secret is anywhere to be seen")
    func wrongPassword() async throws {
        let wrong = "wrong+\(UUID().uuidString.prefix(8))"
        let rig = try await Rig(password: wrong)
        let report = try #require(await rig.library.scan(["sub"], loader: rig.loader).first)
        #expect(report.failed)
        let message = report.problems.joined(separator: "\n")
        #expect(message.contains("sub") && message.contains("Subsonic error 40") && message.contains("username or password"), "\(message)")
        let wrongHex = wrong.utf8.map { String(format: "%02x", $0) }.joined()
        #expect(!message.contains(wrong) && !message.contains(wrongHex))

        // Playing a song by its location: the same error, not an envelope taken for audio.
        let location = TrackLocation(source: "sub", key: "song/0")
        await #expect {
            _ = try await rig.loader.open(location)
        } throws: { error in
            "\(error)".contains("sub") && "\(error)".contains("Subsonic error 40") && !"\(error)".contains(wrongHex)
        }
        await rig.loader.shutdown()
        #expect(CacheInspector(cacheDirectory: rig.directory.appendingPathComponent("cache")).entries.isEmpty)
        let log = await rig.proxy.settledLog()
        #expect(log.contains { $0.path.contains("p=enc%3A\(wrongHex)") }, "the hex password, which Supysonic takes")
        #expect(!log.contains { $0.path.contains(wrong) || $0.path.contains("p=wrong") }, "never the plain password")
    }

    @Test("a server that answers XML though JSON was asked, and refuses with code 50: one error naming the source")
    func xmlRefusal() async throws {
        let rig = try await Rig()
        let envelope = #"<subsonic-response xmlns="http://subsonic.org/restapi" version="1.12.0" status="failed">"#
        rig.proxy.inject(.answer(method: "GET", status: 200, body: envelope + #"<error code="10" message="u"/></subsonic-response>"#),
                         .answer(method: "GET", status: 200, body: envelope + #"<error code="50" message="Not allowed."/></subsonic-response>"#))
        let report = try #require(await rig.library.scan(["sub"], loader: rig.loader).first)
        let message = report.problems.joined(separator: "\n")
        #expect(report.failed && message.contains("sub: cannot read the server's library: the user may not do this on the server (Subsonic error 50: Not allowed.)"), "\(message)")
        await rig.loader.shutdown()
    }

    @Test("an API key for a server without OpenSubsonic, or a page that is no Subsonic answer: one clear error naming the source")
    func noSubsonicHere() async throws {
        let keyed = try await Rig(credentials: #"api_key = "key-4711-secret""#)
        let report = try #require(await keyed.library.scan(["sub"], loader: keyed.loader).first)
        let message = report.problems.joined(separator: "\n")
        #expect(report.failed && message.contains("sub: cannot read the server's library: the server takes no API key"), "\(message)")
        #expect(!message.contains("key-4711-secret"))
        #expect(!(await keyed.proxy.settledLog()).contains { $0.path.contains("key-4711") }, "a key the server cannot take is not sent")
        await keyed.loader.shutdown()

        let rig = try await Rig()
        rig.proxy.inject(.answer(method: "GET", status: 200, body: "<html><body>Please log in</body></html>"))
        let page = try #require(await rig.library.scan(["sub"], loader: rig.loader).first)
        #expect(page.failed && page.problems.joined().contains("sub: cannot read the server's library: no Subsonic server answers at"), "\(page)")
        await rig.loader.shutdown()
    }

    @Test("a server that says API 1.13.0 or later gets a token, md5(password + salt), with a new salt each request; an OpenSubsonic one with apiKeyAuthentication gets the API key alone")
    func negotiation() async throws {
        // Supysonic answers 1.12.0: the proxy answers the unauthenticated probes as newer servers
        // would, and Supysonic itself answers the rest (refusing what it cannot take, code 10).
        let rig = try await Rig()
        rig.proxy.inject(.answer(method: "GET", status: 200,
                                 body: #"<subsonic-response status="failed" version="1.16.1"><error code="10" message="u"/></subsonic-response>"#))
        let report = try #require(await rig.library.scan(["sub"], loader: rig.loader).first)
        #expect(report.failed && report.problems.joined().contains("sub: cannot read the server's library: the server says a parameter is missing (Subsonic error 10"))
        _ = try? await rig.loader.open(TrackLocation(source: "sub", key: "song/1"))
        await rig.loader.shutdown()
        let signed = await rig.proxy.settledLog().dropFirst().map { exchange in
            Dictionary(URLComponents(string: exchange.path)?.queryItems?.map { ($0.name, $0.value ?? "") } ?? [], uniquingKeysWith: { a, _ in a })
        }
        #expect(signed.count == 2 && signed.allSatisfy { $0["p"] == nil && $0["u"] == rig.server.username && $0["v"] == "1.16.1" })
        #expect(Set(signed.compactMap { $0["s"] }).count == 2, "a new salt for each request")
        for query in signed {
            #expect(query["t"] == SubsonicAuth.token(password: rig.server.password, salt: query["s"] ?? ""))
        }

        let keyed = try await Rig(credentials: #"api_key = "key-4711""#)
        keyed.proxy.inject(.answer(method: "GET", status: 200,
                                   body: #"<subsonic-response status="failed" version="1.16.1" openSubsonic="true"><error code="10" message="u"/></subsonic-response>"#),
                           .answer(method: "GET", status: 200,
                                   body: #"<subsonic-response status="ok" version="1.16.1" openSubsonic="true"><openSubsonicExtensions name="apiKeyAuthentication"><versions>1</versions></openSubsonicExtensions></subsonic-response>"#))
        _ = await keyed.library.scan(["sub"], loader: keyed.loader)
        await keyed.loader.shutdown()
        let log = await keyed.proxy.settledLog()
        #expect(log.count == 3 && log[1].path.contains("/rest/getOpenSubsonicExtensions"))
        #expect(log[2].path.contains("apiKey=key-4711") && !log[2].path.contains("u=") && !log[2].path.contains("p="), "\(log[2].path)")
    }

    @Test("no credential in a location, a library row, a cache file's name or what MPRIS would show")
    func noSecrets() async throws {
        let rig = try await Rig()
        _ = await rig.library.scan(["sub"], loader: rig.loader)
        let tracks = try await rig.library.tracks(TrackFilter(source: "sub"))
        let first = try #require(tracks.first)
        _ = try await rig.loader.bytes(in: 0..<1000, of: TrackLocation(uri: first.url))
        await rig.loader.shutdown()
        #expect(await rig.proxy.settledLog().contains { $0.path.contains("p=enc%3A") }, "requests did carry the credentials")
        let cacheNames = try FileManager.default.subpathsOfDirectory(atPath: rig.directory.appendingPathComponent("cache").path)
        var shown: [String] = cacheNames
        for (number, track) in tracks.enumerated() {
            let location = TrackLocation(uri: track.url)
            shown += [track.url, location.publicURI, location.description, location.displayName, track.folder]
            let entry = QueueEntry(id: UInt64(number), location: location, metadata: TrackMetadata(tags: track.tags, duration: track.duration))
            shown.append("\(MPRISState().metadata(of: entry))")
        }
        shown += try await rig.library.playlists().compactMap(\.playlist.url)
        for text in shown {
            for secret in rig.secrets {
                #expect(!text.contains(secret), "\(text)")
            }
            #expect(!text.contains("?"), "no query: \(text)")
        }
    }

    @Test("answers are read as JSON or XML alike; an error envelope in either is a failure with its code")
    func envelopes() throws {
        let xml = #"<subsonic-response status="failed" version="1.12.0" xmlns="http://subsonic.org/restapi"><error code="40" message="Wrong username or password." /></subsonic-response>"#
        let json = #"{"subsonic-response":{"error":{"code":40,"message":"Wrong username or password."},"status":"failed","version":"1.12.0"}}"#
        for text in [xml, json] {
            let answer = try SubsonicAnswerParser.parse(Array(text.utf8))
            #expect(answer.version == "1.12.0" && answer.failure?.code == 40 && answer.failure?.message == "Wrong username or password.")
        }
        let albumXML = #"<?xml version="1.0" encoding="UTF-8"?><subsonic-response xmlns="http://subsonic.org/restapi" status="ok" version="1.16.1" openSubsonic="true"><album id="1" name="A"><song id="2" title="T" track="3"/><song id="4" title="U"/></album></subsonic-response>"#
        let albumJSON = #"{"subsonic-response":{"status":"ok","version":"1.16.1","openSubsonic":true,"album":{"id":"1","name":"A","song":[{"id":"2","title":"T","track":3},{"id":"4","title":"U"}]}}}"#
        let fromXML = try SubsonicAnswerParser.parse(Array(albumXML.utf8)), fromJSON = try SubsonicAnswerParser.parse(Array(albumJSON.utf8))
        #expect(fromXML.isOpenSubsonic && fromJSON.isOpenSubsonic && fromXML.failure == nil)
        #expect(fromXML.envelope.first("album")?.all("song").map { $0["title"] } == ["T", "U"])
        #expect(fromXML.envelope.first("album") == fromJSON.envelope.first("album"))
        for bad in ["<html><body>Login</body></html>", "{\"error\": 1}", "Service Unavailable", "{\"subsonic-response\": "] {
            #expect(throws: ParseError.self) { try SubsonicAnswerParser.parse(Array(bad.utf8)) }
        }
    }

    @Test("the token is md5(password + salt), as the API's own example gives it, with a new salt each time")
    func token() {
        #expect(SubsonicAuth.token(password: "sesame", salt: "c19b2d") == "26719a1196d2a940705a59634eb18eab")
        #expect(SubsonicAuth.salt() != SubsonicAuth.salt())
    }

    /// Reads a whole source in uneven pieces, on a thread of its own (reads wait for the network).
    private func readAll(_ source: any ByteSource) async throws -> Data {
        try await onOwnThread {
            var data = Data()
            while true {
                let bytes = try source.readBytes(at: Int64(data.count), count: 70_001)
                if bytes.isEmpty { return data }
                data.append(contentsOf: bytes)
            }
        }
    }
}

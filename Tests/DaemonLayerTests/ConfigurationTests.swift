import ComponentTestSupport
import Config
import Daemon
import Foundation
import Loader
import Model
import Scrobbling
import SourceTypes
import Testing

/// The config file: what it accepts, and errors that say where to look — never a secret.
@Suite struct ConfigurationTests {
    private let directory = URL(fileURLWithPath: "/home/anna/.config/cloudplayerd")

    @Test("the README's example parses into sources, credentials and a cache limit")
    func example() throws {
        let text = """
            # cloudplayerd
            [cache]
            max_size = "2 GiB"            # LRU eviction beyond it

            [[source]]
            name = "nextcloud"
            type = "webdav"
            url = "https://cloud.example.org/remote.php/dav/files/anna/Music/"
            username = "anna"
            password_file = "~/.config/cloudplayerd/nextcloud.pass"

            [[source]]
            name = "cdn"
            type = "http"
            url = "https://media.example.com/"
            headers = { Authorization = "Bearer abc.def", "X-Client" = 'cloudplayerd' }
            """
        let configuration = try Configuration.parse(text, relativeTo: directory)
        #expect(configuration.loader.cacheLimit == 2 << 30)
        #expect(configuration.loader.readAhead == 64 << 20 && !configuration.loader.fillWhole && configuration.loader.perHost == 4)
        #expect(configuration.sources.all.map(\.name) == ["nextcloud", "cdn"])
        let cloud = try #require(configuration.sources.all[0] as? WebDAVSource)
        #expect(cloud.server.username == "anna")
        if case .file(let path, _)? = cloud.server.password { #expect(path.hasSuffix("/.config/cloudplayerd/nextcloud.pass")) } else {
            Issue.record("password_file not read: \(String(describing: cloud.server.password))")
        }
        let cdn = try #require(configuration.sources.all[1] as? HTTPSource)
        #expect(cdn.server.headers.map(\.name) == ["Authorization", "X-Client"])
        #expect(cdn.server.headers[0].value.reveal() == "Bearer abc.def")
        #expect("\(cdn.server.headers[0].value)" == "<secret>")
    }

    /// The ```toml blocks of README.md and docs/, each with its file and first line.
    static func documentedExamples() throws -> [(file: String, line: Int, text: String)] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        var files = ["README.md"]
        let walker = FileManager.default.enumerator(atPath: root.appendingPathComponent("docs").path)
        while let file = walker?.nextObject() as? String {
            if file.hasSuffix(".md") { files.append("docs/\(file)") }
        }
        var examples: [(file: String, line: Int, text: String)] = []
        for file in files.sorted() {
            let lines = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
            var start: Int?
            for (index, line) in lines.enumerated() {
                if line == "```toml" {
                    start = index + 1
                } else if line == "```", let first = start {
                    examples.append((file, first + 1, lines[first..<index].joined(separator: "\n")))
                    start = nil
                }
            }
        }
        return examples
    }

    @Test("every TOML example in README.md and docs/ is a config file cloudplayerd takes")
    func documentedExamplesParse() throws {
        let examples = try Self.documentedExamples()
        #expect(examples.count >= 12, "\(examples.map { "\($0.file):\($0.line)" })")
        for example in examples {
            do {
                _ = try Configuration.parse(example.text, relativeTo: directory)
            } catch {
                Issue.record("\(example.file), the example at line \(example.line): \(error)")
            }
        }
    }

    @Test("[cache] read_ahead and fill, [network] per_host: read as written")
    func fetchPolicyKeys() throws {
        let text = "[cache]\nread_ahead = \"8 MiB\"\nfill = \"whole\"\n\n[network]\nper_host = 2\n"
        let loader = try Configuration.parse(text, relativeTo: directory).loader
        #expect(loader.readAhead == 8 << 20 && loader.fillWhole && loader.perHost == 2)
        #expect(try !Configuration.parse("[cache]\nfill = \"ahead\"\n", relativeTo: directory).loader.fillWhole)
    }

    @Test("[scrobble] stations: off unless written true")
    func scrobbleStations() throws {
        let token = "[scrobble]\nlistenbrainz_token = \"abc\"\n"
        #expect(try Configuration.parse(token, relativeTo: directory).scrobble?.stations == false)
        #expect(try Configuration.parse(token + "stations = true\n", relativeTo: directory).scrobble?.stations == true)
    }

    @Test("[network] hls_bandwidth: bits per second as a number or with a unit; unset, no cap; anything else one error naming the key")
    func hlsBandwidth() throws {
        for (written, bits) in [("96000", 96000), ("\"128k\"", 128_000), ("\"2.5M\"", 2_500_000), ("\"320 kbit/s\"", 320_000)] {
            #expect(try Configuration.parse("[network]\nhls_bandwidth = \(written)\n", relativeTo: directory).loader.hlsBandwidth == bits, "\(written)")
        }
        #expect(try Configuration.parse("", relativeTo: directory).loader.hlsBandwidth == nil)
        for bad in ["\"fast\"", "0", "\"-3k\"", "\"1e300\"", "\"inf\""] {
            do {
                _ = try Configuration.parse("[network]\nhls_bandwidth = \(bad)\n", relativeTo: directory)
                Issue.record("\(bad) was taken")
            } catch {
                #expect("\(error)".contains("network.hls_bandwidth"), "\(error)")
            }
        }
    }

    @Test("[playback] replaygain, preamp, clip and resume_longer_than: read as written; off, 0 dB, clip protection and 10 minutes by default")
    func playbackKeys() throws {
        let text = "[playback]\nreplaygain = \"auto\"\nreplaygain_preamp = -3.5\nreplaygain_clip = false\nresume_longer_than = \"1h30m\"\n"
        #expect(try Configuration.parse(text, relativeTo: directory).playback
                == PlaybackSettings(loudness: ReplayGainSettings(mode: .auto, preamp: -3.5, preventClipping: false), resumeLongerThan: 5400))
        #expect(try Configuration.parse("", relativeTo: directory).playback
                == PlaybackSettings(loudness: ReplayGainSettings(mode: .off, preamp: 0, preventClipping: true), resumeLongerThan: 600))
    }

    @Test("[playback] speed and a source's own: read as written; 1 and none by default; the range the player's")
    func speeds() throws {
        let text = "[playback]\nspeed = 1.25\n\n[[source]]\nname = \"pods\"\ntype = \"local\"\npath = \"/tmp\"\nspeed = 1.5\n"
        let playback = try Configuration.parse(text, relativeTo: directory).playback
        #expect(playback.speed == 1.25 && playback.sourceSpeeds == ["pods": 1.5])
        let plain = try Configuration.parse("", relativeTo: directory).playback
        #expect(plain.speed == 1 && plain.sourceSpeeds.isEmpty)
        #expect(ConfigReader.speeds == PlaybackSettings.speeds)
    }

    @Test("[scrobble]: a token file and another server read as written; the public API by default; a URL without a token, two token keys or credentials in the URL refused without quoting the token")
    func scrobbleKeys() throws {
        let text = "[scrobble]\nlistenbrainz_token_file = \"lb.token\"\nlistenbrainz_url = \"http://127.0.0.1:8100\"\n"
        let scrobble = try #require(try Configuration.parse(text, relativeTo: directory).scrobble)
        #expect(scrobble.url.absoluteString == "http://127.0.0.1:8100" && scrobble.token == .file(directory.path + "/lb.token", setting: "listenbrainz_token_file of [scrobble]"))
        let inline = try Configuration.parse("[scrobble]\nlistenbrainz_token = \"s3cr3t\"\n", relativeTo: directory).scrobble
        #expect(inline?.url == ListenBrainzSettings.publicAPI)
        #expect(try Configuration.parse("", relativeTo: directory).scrobble == nil)
        for (bad, key) in [("listenbrainz_url = \"https://lb.example\"", "scrobble.listenbrainz_token"),
                           ("listenbrainz_token = \"s3cr3t\"\nlistenbrainz_token_file = \"x\"", "scrobble.listenbrainz_token"),
                           ("listenbrainz_token = \"s3cr3t\"\nlistenbrainz_url = \"https://me:s3cr3t@lb.example\"", "scrobble.listenbrainz_url"),
                           ("listenbrainz_token = \"s3cr3t\"\nlastfm = 1", "scrobble.lastfm")] {
            do {
                _ = try Configuration.parse("[scrobble]\n" + bad + "\n", relativeTo: directory)
                Issue.record("accepted: \(bad)")
            } catch {
                #expect(error.key == key, "\(error)")
                #expect(!"\(error)".contains("s3cr3t"), "\(error)")
            }
        }
    }

    @Test("the longest matching root wins; other hosts, ports and schemes do not match")
    func sourceMatching() throws {
        let text = """
            [[source]]
            name = "all"
            type = "http"
            url = "https://h.example/"
            [[source]]
            name = "music"
            type = "webdav"
            url = "https://h.example/dav/music"
            """
        let sources = try Configuration.parse(text, relativeTo: directory).sources
        func source(_ url: String) -> String? { sources.location(of: URL(string: url)!).source }
        #expect(source("https://h.example/dav/music/a.mp3") == "music")
        #expect(source("https://h.example/dav/musical/a.mp3") == "all")
        #expect(source("https://H.EXAMPLE:443/x.mp3") == "all")
        #expect(source("http://h.example/x.mp3") == nil)
        #expect(source("https://h.example:8443/x.mp3") == nil)
        #expect(source("https://evil.example/dav/music/a.mp3") == nil)
    }

    @Test("mistakes are named by line and key, and a password never appears in the message",
          arguments: [
            ("[cache]\nmax_size = \"lots\"\n", 2, "cache.max_size"),
            ("[cache]\nmax_sise = \"1 GiB\"\n", 2, "cache.max_sise"),
            ("[[source]]\nname = \"a\"\ntype = \"ftp\"\nurl = \"ftp://x/\"\n", 3, "source 'a'.type"),
            ("[[source]]\nname = \"a\"\ntype = \"http\"\nurl = \"https://u:hunter2@x/\"\n", 4, "source 'a'.url"),
            ("[[source]]\nname = \"a\"\ntype = \"http\"\nurl = \"https://x/\"\npassword = \"hunter2\"\n", 1, "source 'a'.username"),
            ("[network]\nread_timeout = \"soon\"\n", 2, "network.read_timeout"),
            ("[cache]\ndir = 5\n", 2, "cache.dir"),
            ("[cache]\nread_ahead = \"far\"\n", 2, "cache.read_ahead"),
            ("[cache]\nfill = \"all\"\n", 2, "cache.fill"),
            ("[network]\nper_host = 0\n", 2, "network.per_host"),
            ("[network]\nper_host = 2.5\n", 2, "network.per_host"),
            ("[playback]\nreplaygain = \"loud\"\n", 2, "playback.replaygain"),
            ("[playback]\nreplaygain_preamp = 30\n", 2, "playback.replaygain_preamp"),
            ("[playback]\nreplaygain_clip = \"yes\"\n", 2, "playback.replaygain_clip"),
            ("[playback]\nreplay_gain = \"track\"\n", 2, "playback.replay_gain"),
            ("[playback]\nresume_longer_than = \"long\"\n", 2, "playback.resume_longer_than"),
            ("[playback]\nresume_longer_than = 600\n", 2, "playback.resume_longer_than"),
            ("[playback]\nspeed = 4\n", 2, "playback.speed"),
            ("[[source]]\nname = \"a\"\ntype = \"local\"\npath = \"/tmp\"\nspeed = \"fast\"\n", 5, "source 'a'.speed"),
            ("x = 1\n\n[cache]\nmax_size = \"1 GiB\"\nmax_size = \"2 GiB\"\n", 5, "cache.max_size"),
            ("x = 1\n", 1, "x"),
          ])
    func namedMistakes(_ text: String, line: Int, key: String) {
        #expect {
            try Configuration.parse(text, relativeTo: directory)
        } throws: { error in
            guard let error = error as? ConfigError else { return false }
            return error.line == line && error.key == key && !"\(error)".contains("hunter2")
        }
    }

    @Test("TOML syntax errors say which line", arguments: [
        ("[cache\nmax_size = 1\n", 1),
        ("a = \"open\n", 1),
        ("\n\na = 'x' b = 2\n", 3),
        ("a = [1, 2\nb = 3\n", 2),
        ("a = \"\"\"multi\"\"\"\n", 1),
        ("[t]\n[t]\n", 2),
        ("a = tru\n", 1),
    ])
    func syntaxErrors(_ text: String, line: Int) {
        #expect {
            try TOMLParser.parse(text)
        } throws: { error in
            (error as? ConfigError)?.line == line
        }
    }

    @Test("TOML values: strings with escapes, numbers, booleans, arrays over lines, dotted keys, arrays of tables")
    func tomlValues() throws {
        let table = try TOMLParser.parse("""
            s = "a\\tb\\u00e9\\"q\\""
            l = 'C:\\path'
            n = -1_000
            f = 2.5
            b = true
            a = [ 1,
                  2, ]
            d.e = "dotted"
            [[t]]
            x = 1
            [[t]]
            x = 2
            """)
        #expect(table["s"] == .string("a\tbé\"q\"", line: 1))
        #expect(table["l"] == .string("C:\\path", line: 2))
        #expect(table["n"] == .integer(-1000, line: 3))
        #expect(table["f"] == .float(2.5, line: 4))
        #expect(table["b"] == .boolean(true, line: 5))
        #expect(table["a"] == .array([.integer(1, line: 6), .integer(2, line: 7)], line: 6))
        guard case .table(let d, _)? = table["d"], case .array(let t, _)? = table["t"] else {
            Issue.record("tables missing: \(table.keys)")
            return
        }
        #expect(d["e"] == .string("dotted", line: 8))
        #expect(t.count == 2)
    }

    @Test("sizes for people", arguments: [("2 GiB", Int64(2) << 30), ("500MB", 500_000_000), ("64 KiB", 65536), ("1.5 GiB", Int64(3) << 29), ("123", 123)])
    func sizes(_ text: String, bytes: Int64) {
        #expect(ByteCount.parse(text) == bytes)
    }

    @Test("a config file that is named but missing is an error; the default one may be absent")
    func missingFile() throws {
        #expect(throws: ConfigError.self) { try Configuration.load(explicit: "/nonexistent/cloudplayerd.toml") }
    }

    @Test("a path that climbs out of a source's root, even percent-encoded, is not placed in it (no credentials)")
    func climbingPathIsNotCovered() throws {
        let table = "[[source]]\nname = \"dav\"\ntype = \"webdav\"\nurl = \"https://cloud.example.org/dav/music/\"\n"
        let sources = try Configuration.parse(table, relativeTo: directory).sources
        func source(of url: String) -> String? { sources.location(of: URL(string: url)!).source }
        #expect(source(of: "https://cloud.example.org/dav/music/a/b.mp3") == "dav")
        #expect(source(of: "https://cloud.example.org/dav/music/%2e%2e/private/x.mp3") == nil)
        #expect(source(of: "https://cloud.example.org/dav/music/a/%2E%2E/%2e%2e/x.mp3") == nil)
        #expect(source(of: "https://cloud.example.org/dav/music/a/../../private/x.mp3") == nil)
        #expect(source(of: "https://cloud.example.org/dav/musicx/y.mp3") == nil)
        #expect(source(of: "https://cloud.example.org/dav/music%2Fx/y.mp3") == nil)  // an escaped slash is no separator
        // A dot segment that stays below the root is resolved as the server will: the same track.
        let dotted = sources.location(of: URL(string: "https://cloud.example.org/dav/music/./x.mp3")!)
        #expect(dotted.source == "dav" && dotted.key == "x.mp3")
        #expect(dotted == sources.location(of: URL(string: "https://cloud.example.org/dav/music/x.mp3")!))
    }

    @Test("a secret command's output is the secret; one that fails or hangs (a grandchild holding its output included) is an error naming the setting, never the command")
    func secretCommands() async throws {
        #expect(try await Secret.Origin.command("printf 's3cret\\n'").resolve().reveal() == "s3cret")
        do {
            _ = try await Secret.Origin.command("(sleep 300 &); sleep 300", setting: "password_command of source 'dav2'").resolve(timeout: 1)
            Issue.record("a hanging command gave a secret")
        } catch let error as ConfigError {
            #expect("\(error)".contains("password_command of source 'dav2' did not finish within 1 s") && !"\(error)".contains("sleep"), "\(error)")
        }
        do {
            _ = try await Secret.Origin.command("echo $((6 * 7)); : PLAINPW; exit 3", setting: "password_command of source 'dav2'").resolve()
            Issue.record("a failing command gave a secret")
        } catch {
            #expect(!"\(error)".contains("42") && !"\(error)".contains("PLAINPW") && "\(error)".contains("status 3"), "\(error)")
            #expect("\(error)".contains("password_command of source 'dav2'"), "\(error)")
        }
    }
}

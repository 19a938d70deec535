import Foundation
import Testing
import TestSupport

/// A cloud source as a user meets it from the command line (Yandex.Disk, Dropbox, OneDrive): a config file
/// with a cache and the emulator's two sources (the first logs in, "plain" has a token), a private
/// bus with the daemon on it at trace level, and everything the programs printed gathered, to
/// check at the end that no token shows anywhere.
final class CloudCLIRig {
    static let busName = "org.mpris.MediaPlayer2.cloudplayerd"

    let folder: URL
    let config: URL
    let bus: DBusTestBus
    let daemon: ChildProcess
    /// Everything the programs printed so far.
    var printed = ""

    init(sourcesText: String) async throws {
        folder = try Fixtures.shared.scratchDirectory()
        config = folder.appendingPathComponent("config.toml")
        try """
            [cache]
            dir = "\(folder.appendingPathComponent("cache").path)"

            \(sourcesText)
            """.write(to: config, atomically: true, encoding: .utf8)
        bus = try await DBusTestBus()
        daemon = try ChildProcess(BuiltProducts.cloudplayerd, ["daemon", "--output", "null", "--config", config.path, "--log-level", "trace"],
                                  environment: bus.environment)
        #expect(try await bus.waitForName(Self.busName))
    }

    /// `cloudplayerctl ARGUMENTS` against the daemon; what it printed is kept.
    func ctl(_ arguments: String...) async throws -> ProcessResult {
        let result = try await bus.run(BuiltProducts.cloudplayerctl, arguments)
        printed += result.stdout + result.stderr
        return result
    }

    /// `cloudplayerctl login SOURCE ARGUMENTS…`, running (stdin from `input`).
    func login(_ source: String, _ arguments: [String] = [], input: ChildProcess.Input = .null) throws -> ChildProcess {
        try ChildProcess(BuiltProducts.cloudplayerctl, ["login", source, "--config", config.path] + arguments, environment: bus.environment, input: input)
    }

    /// The authorize address a running login printed (its line starting with `prefix`), once printed.
    func address(of login: ChildProcess, prefix: String) async throws -> String {
        while true {
            if let line = login.outputSoFar().split(separator: "\n").first(where: { $0.hasPrefix(prefix) }) { return String(line) }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// `cloudplayerctl login SOURCE --paste`, to its end: `paste` gets the authorize address it
    /// printed (its line starting with `prefix`) and answers the line the user pastes, which goes
    /// in through a pipe on standard input.
    func pasteLogin(_ source: String, prefix: String, paste: (String) async throws -> String) async throws {
        let pipe = folder.appendingPathComponent("stdin-\(UUID().uuidString)")
        #expect(mkfifo(pipe.path, 0o600) == 0)
        let writer = Glibc.open(pipe.path, O_RDWR)
        #expect(writer >= 0)
        defer { close(writer) }
        let login = try login(source, ["--paste"], input: .file(pipe))
        let line = Array((try await paste(try await address(of: login, prefix: prefix)) + "\n").utf8)
        #expect(write(writer, line, line.count) == line.count)
        await loggedIn(login)
    }

    /// The body of a GET of `address`, redirects followed (a browser).
    static func open(_ address: String) async throws -> String {
        try await ChildProcess.check("python3", ["-c", "import sys, urllib.request; print(urllib.request.urlopen(sys.argv[1]).read().decode())", address]).stdout
    }

    /// The login ended well; what it printed is kept.
    func loggedIn(_ login: ChildProcess) async {
        let result = await login.wait()
        #expect(result.status == 0 && result.stdout.contains("Logged in"), "\(result.stdout) \(result.stderr)")
        printed += result.stdout + result.stderr
    }

    /// `cloudplayerd play LOCATION` at trace level with the stored logins: it sounds as mpg123 decodes `mp3`.
    func play(_ location: String, as mp3: URL) async throws {
        let output = folder.appendingPathComponent("out-\(UUID().uuidString).wav")
        let played = try await BuiltProducts.runCloudPlayerd(["play", "--no-mpris", "--config", config.path, "--output", "wav:\(output.path)",
                                                              "--log-level", "trace", location],
                                                             environment: ["XDG_DATA_HOME": bus.dataHome.path])
        #expect(played.status == 0, "\(played.stderr)")
        #expect(try PCMAudio(wavFile: output) == (try await ReferenceDecoder.mpg123(mp3)))
        printed += played.stdout + played.stderr
    }

    /// MPRIS `OpenUri` of the track in the daemon (as a desktop's "open with" would): taken, it
    /// is the track MPRIS shows (`xesam:url`); then stopped.
    func checkOpenUri(_ location: String) async throws {
        let opened = try await bus.run("busctl", ["--address=\(bus.address)", "call", Self.busName, "/org/mpris/MediaPlayer2",
                                                  "org.mpris.MediaPlayer2.Player", "OpenUri", "s", location])
        #expect(opened.status == 0, "\(opened.stderr)")
        printed += opened.stdout + opened.stderr
        #expect(try await eventually {
            try await bus.run("busctl", ["--address=\(bus.address)", "get-property", Self.busName, "/org/mpris/MediaPlayer2",
                                         "org.mpris.MediaPlayer2.Player", "Metadata"]).stdout.contains(location)
        })
        #expect(try await ctl("stop").status == 0)
    }

    /// After its refresh token was revoked: `source` scans "needs login", `sources` says so, an
    /// MPRIS OpenUri of one of its tracks not cached is refused saying so, and "plain" goes on.
    func checkNeedsLogin(_ source: String, on server: any EmulatedCloud) async throws {
        let notCached = try server.publish(try await Fixtures.shared.url(.cbrMP3), as: "Music/not-cached.mp3")
        defer { try? FileManager.default.removeItem(at: notCached) }
        let opened = try await bus.run("busctl", ["--address=\(bus.address)", "call", Self.busName, "/org/mpris/MediaPlayer2",
                                                  "org.mpris.MediaPlayer2.Player", "OpenUri", "s", "cloudplayer://\(source)/Music/not-cached.mp3"])
        #expect(opened.status != 0 && opened.stderr.contains("needs login") && opened.stderr.contains("cloudplayerctl login \(source)"),
                "\(opened.stdout) \(opened.stderr)")
        printed += opened.stdout + opened.stderr
        let refused = try await ctl("scan", source)
        // One message, the real one, wherever it is asked: the refused refresh token (issue 27),
        // never "no login is stored".
        let reason = "the provider refused the refresh token"
        #expect(opened.stderr.contains(reason), "\(opened.stderr)")
        #expect(refused.status == 1 && refused.stdout.contains("needs login: \(reason)") && !refused.stdout.contains("no login is stored"),
                "\(refused.stdout) \(refused.stderr)")
        let sources = try await ctl("sources")
        let rows = sources.stdout.split(separator: "\n")
        // The table's column is cut: the reason's start is enough.
        #expect(rows.contains { $0.hasPrefix("\(source) ") && $0.contains("needs login: the provider refused") }, "\(sources.stdout)")
        #expect(rows.contains { $0.hasPrefix("plain ") && $0.contains(" ok ") }, "\(sources.stdout)")
        let other = try await ctl("scan", "plain")
        #expect(other.status == 0, "\(other.stdout) \(other.stderr)")
    }

    /// The access and refresh tokens `source`'s token file holds now.
    func tokens(of source: String) throws -> Set<String> {
        let file = bus.dataHome.appendingPathComponent("cloudplayerd/tokens/\(source).json")
        let record = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any] ?? [:]
        return Set(["accessToken", "refreshToken"].compactMap { record[$0] as? String })
    }

    /// Stops the daemon (one journal line for the revocation) and the bus; none of `tokens` was
    /// printed or is in a file name.
    func finish(tokens: Set<String>) async throws {
        daemon.signal(SIGTERM)
        let log = await daemon.wait()
        #expect(log.stderr.components(separatedBy: "source needs login").count == 2, "one journal line for the revocation")
        printed += log.stdout + log.stderr
        await bus.stop()
        for token in tokens { #expect(!printed.contains(token), "a token was printed") }
        let names = try FileManager.default.subpathsOfDirectory(atPath: folder.path) + (try FileManager.default.subpathsOfDirectory(atPath: bus.dataHome.path))
        for token in tokens { #expect(!names.joined(separator: "\n").contains(token)) }
    }
}

extension CloudCLIRig {
    /// A browser login from the command line as a user meets it, the same for every provider
    /// that has one (Dropbox, Google Drive), against `server` (its first source `source` logs
    /// in, "plain" has a token; each has one track): `cloudplayerctl login` prints an address
    /// starting with `prefix` (checked by `checkAddress`), a browser opens it and is sent back
    /// with a code; the daemon scans with the stored tokens; `cloudplayerd play track` (which
    /// sounds as `mp3`) refreshes the expired access token at `tokenPath`; a revoked refresh token
    /// shows "needs login" while "plain" goes on; `login --paste` with what `paste` answers for
    /// its address logs in again without a restart; no token is printed or in a file name.
    func checkBrowserLogin<Server: EmulatedCloud>(_ server: Server, source: String, prefix: String, track: String, as mp3: URL,
                                                  tokenPath: String, checkAddress: (String) -> Void,
                                                  paste: (String) async throws -> String) async throws {
        let before = try await ctl("sources")
        #expect(before.stdout.contains("not logged in"), "\(before.stdout)")

        let login = try login(source)
        let first = try await address(of: login, prefix: prefix)
        checkAddress(first)
        #expect(try await Self.open(first).contains("login received"))
        await loggedIn(login)
        var tokens = try tokens(of: source)
        #expect(tokens.count == 2)

        let scan = try await ctl("scan", source, "plain")
        #expect(scan.status == 0 && scan.stdout.contains("\(source): 2 folders, 1 track") && scan.stdout.contains("plain: 1 folder, 1 track"),
                "\(scan.stdout) \(scan.stderr)")

        // cloudplayerd play, with the stored login: its access token has expired, so it refreshes.
        try await server.control(#"{"expire_access": true}"#)
        try await play(track, as: mp3)
        try await checkOpenUri(track)
        tokens.formUnion(try self.tokens(of: source))
        #expect(try await server.log().contains { $0.path == tokenPath && $0.body?.contains("grant_type=refresh_token") == true && $0.status == 200 })

        // The refresh token is revoked: "needs login" for the source; plain goes on.
        try await server.control(#"{"revoke_refresh": true, "expire_access": true}"#)
        try await checkNeedsLogin(source, on: server)

        // Again, pasting into cloudplayerctl: through a pipe on stdin.
        try await pasteLogin(source, prefix: prefix, paste: paste)
        tokens.formUnion(try self.tokens(of: source))
        let again = try await ctl("scan", source)
        #expect(again.status == 0 && again.stdout.contains("\(source): 2 folders, 1 track"), "\(again.stdout) \(again.stderr)")

        tokens.insert(server.token)
        #expect(tokens.count >= 5)
        try await finish(tokens: tokens)
    }
}

import Foundation
import Testing
import TestSupport

/// The daemon and the desktop's keyring (issue 27): a real gnome-keyring-daemon on the daemon's
/// private session bus, two WebDAV servers (rclone), the daemon driven over MPRIS at trace level.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct KeyringDaemonTests {
    static let name = "org.mpris.MediaPlayer2.cloudplayerd"

    /// The daemon on `keyring`'s bus with `config`, logging at trace level.
    private static func daemon(_ keyring: KeyringServer, config: String) throws -> ChildProcess {
        let directory = try Fixtures.shared.scratchDirectory()
        let file = directory.appendingPathComponent("config.toml")
        try Data(config.utf8).write(to: file)
        return try ChildProcess(BuiltProducts.cloudplayerd, ["daemon", "--output", "null", "--config", file.path, "--log-level", "trace"],
                                environment: keyring.environment.merging(["XDG_CACHE_HOME": directory.appendingPathComponent("cache").path]) { $1 })
    }

    private static func openURI(_ keyring: KeyringServer, _ url: URL) async throws -> ProcessResult {
        try await keyring.bus.run("busctl", ["--address=\(keyring.bus.address)", "call", name, "/org/mpris/MediaPlayer2",
                                             "org.mpris.MediaPlayer2.Player", "OpenUri", "s", url.absoluteString])
    }

    private static func heard(_ daemon: ChildProcess) -> Int {
        daemon.errorSoFar().components(separatedBy: "now playing").count - 1
    }

    @Test("a locked keyring: OpenUri of the source whose password is there says the keyring is locked (the journal once), another source plays; after the unlock it plays; no secret in any output at trace level")
    func lockedKeyringWaitsForUnlock() async throws {
        let keyring = try await KeyringServer()
        let vault = try await WebDAVTestServer()
        let plain = try await WebDAVTestServer()
        _ = try vault.publish(try await Fixtures.shared.url(.vbrMP3), as: "a.mp3")
        _ = try plain.publish(try await Fixtures.shared.url(.secondMP3), as: "b.mp3")
        let vaultTrack = vault.baseURL.appendingPathComponent("a.mp3")
        let plainTrack = plain.baseURL.appendingPathComponent("b.mp3")
        try await keyring.store(vault.password, ["service": "vault-dav", "account": vault.username])
        try await keyring.lock()
        let daemon = try Self.daemon(keyring, config: """
            [[source]]
            name = "vault"
            type = "webdav"
            url = "\(vault.baseURL.absoluteString)"
            username = "\(vault.username)"
            password_keyring = { service = "vault-dav", account = "\(vault.username)" }

            [[source]]
            name = "plain"
            type = "webdav"
            url = "\(plain.baseURL.absoluteString)"
            username = "\(plain.username)"
            password = "\(plain.password)"
            """)
        #expect(try await keyring.bus.waitForName(Self.name), "the daemon never took its name: \(daemon.errorSoFar())")

        for attempt in 0..<2 {
            let refused = try await Self.openURI(keyring, vaultTrack)
            #expect(refused.status != 0 && refused.stderr.contains("the keyring is locked")
                    && refused.stderr.contains("password_keyring of source 'vault'"), "\(refused.status) \(refused.stderr)")
            // The unlock prompt ended (no prompter runs on this bus: dismissed at once); the second
            // try must not show another.
            if attempt == 0 {
                #expect(try await eventually { daemon.errorSoFar().contains("unlock prompt was dismissed") }, "\(daemon.errorSoFar())")
            }
        }
        #expect(daemon.errorSoFar().components(separatedBy: "the keyring is locked: asked to unlock it").count - 1 == 1,
                "the journal: \(daemon.errorSoFar())")
        let other = try await Self.openURI(keyring, plainTrack)
        #expect(other.status == 0, "\(other.stderr)")
        #expect(try await eventually { Self.heard(daemon) >= 1 }, "the other source's track was never heard")

        try await keyring.unlock()
        let opened = try await Self.openURI(keyring, vaultTrack)
        #expect(opened.status == 0, "\(opened.stderr)")
        #expect(try await eventually { Self.heard(daemon) >= 2 }, "the keyring's source never played after the unlock: \(daemon.errorSoFar())")

        daemon.signal(SIGTERM)
        let result = await daemon.wait()
        for secret in [vault.password, plain.password, keyring.password] {
            #expect(!result.stdout.contains(secret) && !result.stderr.contains(secret), "a secret in the daemon's output")
        }
        await keyring.stop()
    }

    @Test("a token file moves into the keyring once: the journal says so once, the file is gone, secret-tool finds the record")
    func tokenFileMovesOnce() async throws {
        let keyring = try await KeyringServer()
        let tokens = keyring.bus.dataHome.appendingPathComponent("cloudplayerd/tokens")
        try FileManager.default.createDirectory(at: tokens, withIntermediateDirectories: true)
        let file = tokens.appendingPathComponent("yd.json")
        try Data(#"{"accessToken":"access-secret-1","expiresAt":2000000000,"refreshToken":"refresh-secret-1"}"#.utf8).write(to: file)
        let daemon = try Self.daemon(keyring, config: """
            [[source]]
            name = "yd"
            type = "yandex-disk"
            client_id = "test-client"
            """)
        #expect(try await keyring.bus.waitForName(Self.name), "the daemon never took its name: \(daemon.errorSoFar())")
        for _ in 0..<2 {
            let sources = try await keyring.bus.run(BuiltProducts.cloudplayerctl, ["sources", "--json"])
            #expect(sources.status == 0 && !sources.stdout.contains("not logged in"), "\(sources.stdout) \(sources.stderr)")
            #expect(!sources.stdout.contains("secret-1"))
        }
        #expect(!FileManager.default.fileExists(atPath: file.path), "the token file is still there")
        #expect(try await keyring.lookup(["application": "cloudplayerd", "source": "yd"])?.contains("refresh-secret-1") == true)
        #expect(try await keyring.count(["application": "cloudplayerd", "source": "yd"]) == 1)
        daemon.signal(SIGTERM)
        let result = await daemon.wait()
        #expect(result.stderr.components(separatedBy: "the tokens of source 'yd' moved from").count - 1 == 1, "\(result.stderr)")
        #expect(!result.stderr.contains("secret-1") && !result.stdout.contains("secret-1"))
        await keyring.stop()
    }

    @Test("cloudplayerctl secret set NAME KEY stores the password read from standard input where secret-tool lookup finds it, replacing the one set before; nothing given is an error")
    func secretSet() async throws {
        let keyring = try await KeyringServer()
        let folder = try Fixtures.shared.scratchDirectory()
        for password in ["first-pw-1", "second-pw-2", ""] {
            let input = folder.appendingPathComponent("input")
            try Data((password + "\n").utf8).write(to: input)
            let result = try await ChildProcess.run(BuiltProducts.cloudplayerctl, ["secret", "set", "nextcloud", "anna"],
                                                    environment: keyring.environment, input: .file(input))
            if password.isEmpty {
                #expect(result.status == 1 && result.stderr.contains("no password given"), "\(result.stderr)")
            } else {
                #expect(result.status == 0 && result.stdout.contains("service=nextcloud account=anna"), "\(result.stdout) \(result.stderr)")
                #expect(!result.stdout.contains(password) && !result.stderr.contains(password))
            }
        }
        #expect(try await keyring.lookup(["service": "nextcloud", "account": "anna"]) == "second-pw-2")
        #expect(try await keyring.count(["service": "nextcloud", "account": "anna"]) == 1)
        await keyring.stop()
    }

    @Test("cloudplayerctl login stores the tokens in the keyring (no file); cloudplayerd play refreshes with them, and the rotated refresh token replaces the item (one item); no token printed")
    func loginIntoKeyring() async throws {
        let server = try await YandexDiskTestServer()
        try server.publish(try await Fixtures.shared.url(.vbrMP3), as: "Music/a.mp3")
        let keyring = try await KeyringServer()
        let folder = try Fixtures.shared.scratchDirectory()
        let config = folder.appendingPathComponent("config.toml")
        try Data("[cache]\ndir = \"\(folder.appendingPathComponent("cache").path)\"\n\n\(server.sourcesText)\n".utf8).write(to: config)
        var printed = ""

        let login = try ChildProcess(BuiltProducts.cloudplayerctl, ["login", "yd", "--config", config.path], environment: keyring.environment)
        #expect(try await eventually { login.outputSoFar().contains("enter the code ") }, "\(login.errorSoFar())")
        let prompt: String = try #require(login.outputSoFar().components(separatedBy: "enter the code ").last)
        let code = String(try #require(prompt.split(separator: "\n").first))
        try await server.enter(userCode: code)
        let loggedIn = await login.wait()
        printed += loggedIn.stdout + loggedIn.stderr
        #expect(loggedIn.status == 0 && loggedIn.stdout.contains("stored in the keyring (application=cloudplayerd source=yd)"), "\(printed)")
        let attributes = ["application": "cloudplayerd", "source": "yd"]
        let first = try #require(try await keyring.lookup(attributes))
        #expect(first.contains("refreshToken"))
        #expect(!FileManager.default.fileExists(atPath: keyring.bus.dataHome.appendingPathComponent("cloudplayerd/tokens/yd.json").path))

        try await server.control(#"{"rotate_refresh": true, "expire_access": true}"#)
        let played = try await ChildProcess.run(BuiltProducts.cloudplayerd, ["play", "--no-mpris", "--config", config.path, "--log-level", "trace",
                                                                            "--output", "wav:\(folder.appendingPathComponent("out.wav").path)",
                                                                            "cloudplayer://yd/Music/a.mp3"], environment: keyring.environment)
        printed += played.stdout + played.stderr
        #expect(played.status == 0, "\(played.stderr.suffix(2000))")
        let second = try #require(try await keyring.lookup(attributes))
        #expect(second != first, "the refresh did not write the rotated token")
        #expect(try await keyring.count(attributes) == 1)
        for record in [first, second] {
            for token in Self.tokens(in: record) { #expect(!printed.contains(token), "a token was printed") }
        }
        await keyring.stop()
    }

    /// The token values of a stored record (`"accessToken":"…"`, `"refreshToken":"…"`).
    private static func tokens(in record: String) -> [String] {
        ["accessToken", "refreshToken"].compactMap { key in
            record.components(separatedBy: "\"\(key)\":\"").dropFirst().first?.split(separator: "\"").first.map(String.init)
        }
    }
}

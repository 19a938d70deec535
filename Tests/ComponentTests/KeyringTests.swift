import Config
import Foundation
import Keyring
import Loader
import SourceTypes
import Testing
import TestSupport

/// The desktop's keyring through our own Secret Service client (issue 27), against a real
/// gnome-keyring-daemon on a private bus, checked with the real `secret-tool`.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct KeyringTests {
    @Test("lookup finds what secret-tool stored; store replaces the item with the same attributes (one item), and secret-tool finds it")
    func lookupAndStore() async throws {
        let server = try await KeyringServer()
        let keyring = SecretService(address: server.bus.address)
        #expect(await keyring.isAvailable())
        try await server.store("s3cret", ["service": "nextcloud", "account": "anna"])
        #expect(try await keyring.lookup(["service": "nextcloud", "account": "anna"], for: "test")?.reveal() == "s3cret")
        #expect(try await keyring.lookup(["service": "nextcloud", "account": "bob"], for: "test") == nil)
        for password in ["first", "second"] {
            try await keyring.store(Secret(password), attributes: ["service": "dav", "account": "anna"], label: "dav (anna)", for: "test")
        }
        #expect(try await server.lookup(["service": "dav", "account": "anna"]) == "second")
        #expect(try await server.count(["service": "dav", "account": "anna"]) == 1)
        await keyring.close()
        await server.stop()
    }

    @Test("password_keyring of a WebDAV source: the password comes from the keyring and the track's bytes are read; an item missing is an error naming the setting")
    func webDAVPasswordFromKeyring() async throws {
        let server = try await KeyringServer()
        let keyring = SecretService(address: server.bus.address)
        try await server.store("another", ["service": "unused"])  // an item beside, which must not be taken
        let rig = try await StreamingRig([.vbrMP3])
        try await server.store(rig.server.password, ["service": "webdav-test", "account": rig.server.username])
        let text = rig.configText().replacingOccurrences(of: "password = \"\(rig.server.password)\"",
                                                         with: "password_keyring = { service = \"webdav-test\", account = \"\(rig.server.username)\" }")
        let configuration = try LoaderConfiguration.parse(text, relativeTo: rig.directory, keyring: keyring)
        let loader = LoaderActor(configuration: configuration)
        let location = configuration.sources.location(of: rig.url(.vbrMP3))
        #expect(try await loader.bytes(in: 0..<64, of: location) == Array(try rig.origin(.vbrMP3).prefix(64)))
        await loader.shutdown()

        // Another cache: the first one holds the bytes already.
        let missing = try LoaderConfiguration.parse(text.replacingOccurrences(of: "webdav-test", with: "nowhere")
                                                  .replacingOccurrences(of: rig.cacheDirectory.path, with: rig.cacheDirectory.path + "-2"),
                                              relativeTo: rig.directory, keyring: keyring)
        let other = LoaderActor(configuration: missing)
        do {
            _ = try await other.bytes(in: 0..<64, of: missing.sources.location(of: rig.url(.vbrMP3)))
            Issue.record("a missing keyring item gave bytes")
        } catch {
            #expect("\(error)".contains("password_keyring of source 'dav'") && "\(error)".contains("account=\(rig.server.username) service=nowhere"),
                    "\(error)")
            #expect("\(error)".hasSuffix("; store it with: cloudplayerctl secret set nowhere \(rig.server.username)"), "\(error)")
            #expect(!"\(error)".contains(rig.server.password))
        }
        await other.shutdown()
        await keyring.close()
        await server.stop()
    }

    @Test("a locked keyring: a lookup is a 'locked' error naming the setting at once, the unlock prompt shown once (dbus-monitor counts Prompt calls), another setting too; after the unlock it gives the secret")
    func lockedKeyring() async throws {
        let server = try await KeyringServer()
        let keyring = SecretService(address: server.bus.address)
        try await server.store("s3cret", ["service": "nextcloud", "account": "anna"])
        try await server.lock()
        #expect(try await server.isLocked())
        let monitor = try ChildProcess("dbus-monitor", ["--address", server.bus.address, "interface='org.freedesktop.Secret.Prompt'"])
        #expect(try await eventually { monitor.outputSoFar().contains("NameAcquired") || monitor.outputSoFar().contains("NameLost") },
                "dbus-monitor never started")
        for setting in ["password_keyring of source 'dav'", "password_keyring of source 'other'"] {
            if setting.hasSuffix("'other'") {
                // The first prompt has ended (no prompter on this bus: dismissed at once).
                #expect(try await eventually { monitor.outputSoFar().contains("member=Completed") }, "\(monitor.outputSoFar())")
            }
            do {
                _ = try await keyring.lookup(["service": "nextcloud", "account": "anna"], for: setting)
                Issue.record("a locked keyring gave a secret")
            } catch let error as KeyringError {
                #expect(error == .locked(setting: setting))
                #expect("\(error)".contains("the keyring is locked"))
            }
        }
        #expect(monitor.outputSoFar().components(separatedBy: "member=Prompt\n").count - 1 == 1, "\(monitor.outputSoFar())")
        monitor.signal(SIGTERM)
        _ = await monitor.wait()
        try await server.unlock()
        #expect(try await keyring.lookup(["service": "nextcloud", "account": "anna"], for: "test")?.reveal() == "s3cret")
        await keyring.close()
        await server.stop()
    }

    @Test("tokens in a file move into the keyring once (file gone, secret-tool finds them); a rotated refresh token replaces the item; token_store file keeps files")
    func tokensMoveIntoKeyring() async throws {
        let server = try await KeyringServer()
        let keyring = SecretService(address: server.bus.address)
        let folder = try Fixtures.shared.scratchDirectory().appendingPathComponent("tokens")
        let files = TokenStore(directory: folder)
        let record = TokenRecord(accessToken: "access-1", refreshToken: "refresh-1", expiresAt: Date(timeIntervalSince1970: 2_000_000_000))
        try await files.save(record, for: "yd")
        #expect(FileManager.default.fileExists(atPath: files.file(of: "yd").path))

        let stored = TokenStore(directory: folder, storage: .auto, keyring: keyring)
        #expect(try await stored.load("yd") == record)
        #expect(!FileManager.default.fileExists(atPath: files.file(of: "yd").path), "the token file is still there")
        let attributes = ["application": "cloudplayerd", "source": "yd"]
        #expect(try await server.lookup(attributes)?.contains("refresh-1") == true)
        #expect(try await stored.load("yd") == record)

        var rotated = record
        rotated.refreshToken = "refresh-2"
        try await stored.save(rotated, for: "yd")
        #expect(try await server.count(attributes) == 1)
        #expect(try await server.lookup(attributes)?.contains("refresh-2") == true)
        #expect(try await stored.load("yd") == rotated)
        #expect(!FileManager.default.fileExists(atPath: files.file(of: "yd").path))

        let fileOnly = TokenStore(directory: folder, storage: .file, keyring: keyring)
        try await fileOnly.save(record, for: "od")
        #expect(FileManager.default.fileExists(atPath: files.file(of: "od").path))
        #expect(try await server.count(["application": "cloudplayerd", "source": "od"]) == 0)
        await keyring.close()
        await server.stop()
    }

    @Test("token_store = \"keyring\" where no Secret Service answers is one clear error; \"auto\" there keeps files")
    func noKeyring() async throws {
        let bus = try await DBusTestBus()
        let keyring = SecretService(address: bus.address)
        #expect(await keyring.isAvailable() == false)
        let folder = try Fixtures.shared.scratchDirectory()
        let record = TokenRecord(accessToken: "a", refreshToken: "r", expiresAt: nil)
        do {
            try await TokenStore(directory: folder, storage: .keyring, keyring: keyring).save(record, for: "yd")
            Issue.record("tokens saved with no keyring")
        } catch {
            #expect("\(error)".contains("token_store = \"keyring\", but no Secret Service"), "\(error)")
        }
        try await TokenStore(directory: folder, storage: .auto, keyring: keyring).save(record, for: "yd")
        #expect(FileManager.default.fileExists(atPath: TokenStore(directory: folder).file(of: "yd").path))
        await keyring.close()
        await bus.stop()
    }
}

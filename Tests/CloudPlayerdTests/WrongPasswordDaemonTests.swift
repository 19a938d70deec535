import Foundation
import Testing
import TestSupport

/// The README's first config with a wrong password, then corrected (issue 50): the first play
/// fails with the server's 401 where the user looks — `cloudplayerctl status` and the journal —
/// and the corrected password file is taken by the next play, without a restart or a reload.
@Suite(.timeLimit(.minutes(3)))
struct WrongPasswordDaemonTests {
    @Test("a WebDAV source with a wrong password_file: status says the track could not play and why (HTTP 401), the journal too; the file corrected, the next play plays and status says no more")
    func wrongThenCorrected() async throws {
        let server = try await WebDAVTestServer()
        try server.publish(try await Fixtures.shared.url(.longMP3), as: "song.mp3")
        let folder = try Fixtures.shared.scratchDirectory()
        let secret = folder.appendingPathComponent("dav.pass")
        try "not-the-password\n".write(to: secret, atomically: true, encoding: .utf8)
        let config = folder.appendingPathComponent("config.toml")
        try Data("""
            [[source]]
            name = "nextcloud"
            type = "webdav"
            url = "\(server.baseURL.absoluteString)"
            username = "\(server.username)"
            password_file = "\(secret.path)"
            """.utf8).write(to: config)
        let bus = try await DBusTestBus()
        let daemon = try ChildProcess(BuiltProducts.cloudplayerd, ["daemon", "--output", "null", "--config", config.path],
                                      environment: bus.environment.merging(["XDG_CACHE_HOME": folder.path, "XDG_DATA_HOME": folder.path]) { $1 })
        #expect(try await bus.waitForName("org.mpris.MediaPlayer2.cloudplayerd"))
        let url = server.baseURL.appendingPathComponent("song.mp3").absoluteString
        #expect(try await bus.run(BuiltProducts.cloudplayerctl, ["queue", "add", "--play", url]).status == 0)
        var status = ""
        #expect(try await eventually(within: 60) {
            status = try await bus.run(BuiltProducts.cloudplayerctl, ["status"]).stdout
            return status.contains("could not play song.mp3: nextcloud: the server refused the credentials (HTTP 401)")
        }, "\(status)")
        #expect(daemon.errorSoFar().contains("track failed"), "the journal")
        #expect(!status.contains("not-the-password") && !daemon.errorSoFar().contains("not-the-password"))

        try (server.password + "\n").write(to: secret, atomically: true, encoding: .utf8)
        #expect(try await bus.run(BuiltProducts.cloudplayerctl, ["queue", "add", "--play", url]).status == 0)
        #expect(try await eventually(within: 60) {
            status = try await bus.run(BuiltProducts.cloudplayerctl, ["status"]).stdout
            return status.hasPrefix("Playing") && !status.contains("could not play")
        }, "\(status)")
        daemon.signal(SIGTERM)
        _ = await daemon.wait()
        await bus.stop()
    }
}

import Foundation
import Testing
import TestSupport

/// Secrets and the daemon's process (issue 27's security review): a failing secret command is
/// named by its setting, never quoted — not in `cloudplayerctl scan`'s error, not in
/// `cloudplayerctl sources --json` (D-Bus), not in the journal, not in the library's database or
/// its write-ahead log; and the process holding secrets writes no core file.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct SecretCommandDaemonTests {
    @Test("a failing password_command: scan, sources --json, the journal (trace level) and library.sqlite(-wal) name 'password_command of source 'dav2'', never its text")
    func failingCommandNamedBySetting() async throws {
        let server = try await WebDAVTestServer()
        _ = try server.publish(try await Fixtures.shared.url(.vbrMP3), as: "a.mp3")
        let bus = try await DBusTestBus()
        let directory = try Fixtures.shared.scratchDirectory()
        let config = directory.appendingPathComponent("config.toml")
        let marker = "PLAINPW\(UInt32.random(in: 1...UInt32.max))"
        try Data("""
            [[source]]
            name = "dav2"
            type = "webdav"
            url = "\(server.baseURL.absoluteString)"
            username = "bob"
            password_command = "echo bob:\(marker) >/dev/null; exit 7"
            """.utf8).write(to: config)
        let daemon = try ChildProcess(BuiltProducts.cloudplayerd, ["daemon", "--output", "null", "--config", config.path, "--log-level", "trace"],
                                      environment: bus.environment.merging(["XDG_CACHE_HOME": directory.appendingPathComponent("cache").path]) { $1 })
        #expect(try await bus.waitForName("org.mpris.MediaPlayer2.cloudplayerd"), "the daemon never took its name: \(daemon.errorSoFar())")
        let scan = try await bus.run(BuiltProducts.cloudplayerctl, ["scan", "dav2"])
        #expect(scan.stdout.contains("password_command of source 'dav2' failed (status 7)")
                || scan.stderr.contains("password_command of source 'dav2' failed (status 7)"), "\(scan.stdout) \(scan.stderr)")
        let sources = try await bus.run(BuiltProducts.cloudplayerctl, ["sources", "--json"])
        var seen = [scan.stdout, scan.stderr, sources.stdout, sources.stderr]
        // The database files while the daemon runs (the write-ahead log is there then) and after.
        func database() -> [String] {
            ["library.sqlite", "library.sqlite-wal"].map { name in
                String(decoding: (try? Data(contentsOf: bus.dataHome.appendingPathComponent("cloudplayerd/\(name)"))) ?? Data(), as: UTF8.self)
            }
        }
        seen += database()
        daemon.signal(SIGTERM)
        let result = await daemon.wait()
        seen += [result.stdout, result.stderr] + database()
        #expect(FileManager.default.fileExists(atPath: bus.dataHome.appendingPathComponent("cloudplayerd/library.sqlite").path))
        for text in seen { #expect(!text.contains(marker), "the command's text is shown: \(text.prefix(2000))") }
        await bus.stop()
    }

    @Test("cloudplayerd is not dumpable from its start: run as nobody, its /proc/PID files are owned by root (the kernel's sign of PR_SET_DUMPABLE 0); the unit sets LimitCORE=0")
    func notDumpable() async throws {
        let server = try SilentServer()
        let home = try Fixtures.shared.scratchDirectory()
        #expect(chmod(home.path, 0o777) == 0)
        let player = try ChildProcess("/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", BuiltProducts.cloudplayerd,
                                                           "play", "--no-mpris", "--output", "null", server.baseURL.appendingPathComponent("x.mp3").absoluteString],
                                      environment: ["HOME": home.path, "XDG_CACHE_HOME": home.appendingPathComponent("cache").path,
                                                    "XDG_DATA_HOME": home.appendingPathComponent("data").path])
        // Its request reached the silent server: it runs, as nobody, and waits for an answer.
        var requests = server.requests.makeAsyncIterator()
        #expect(await requests.next() != nil, "the player never asked: \(player.errorSoFar())")
        let status = try String(contentsOfFile: "/proc/\(player.pid)/status", encoding: .utf8)
        #expect(status.split(separator: "\n").contains { $0.hasPrefix("Uid:") && $0.contains("65534") }, "\(status)")
        // proc(5): the files of /proc/PID are owned by root when the process is not dumpable.
        var info = stat()
        #expect(stat("/proc/\(player.pid)/status", &info) == 0)
        #expect(info.st_uid == 0, "/proc/\(player.pid)/status is owned by \(info.st_uid): the process is dumpable")
        player.signal(SIGTERM)
        _ = await player.wait()
        server.stop()
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let unit = try String(contentsOf: root.appendingPathComponent("packaging/cloudplayerd.service"), encoding: .utf8)
        #expect(unit.split(separator: "\n").contains("LimitCORE=0"))
    }
}

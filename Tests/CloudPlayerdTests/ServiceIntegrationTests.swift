import Foundation
import Testing
import TestSupport

/// What makes the daemon an installed service: systemd's readiness protocol, the unit file and
/// D-Bus activation.
@Suite(.timeLimit(.minutes(2)))
struct ServiceIntegrationTests {
    private var root: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    @Test("the daemon tells systemd READY=1 once it owns its name, and STOPPING=1 on SIGTERM")
    func readiness() async throws {
        let bus = try await DBusTestBus()
        let socketPath = try Fixtures.shared.scratchDirectory().appendingPathComponent("notify").path
        let listener = try NotifyListener(path: socketPath)
        let daemon = try ChildProcess(BuiltProducts.cloudplayerd, ["daemon", "--output", "null"],
                                      environment: bus.environment.merging(["NOTIFY_SOCKET": socketPath]) { $1 })
        let ready = try await listener.next()
        #expect(ready.contains("READY=1"))
        #expect(ready.contains("STATUS=serving org.mpris.MediaPlayer2.cloudplayerd"))
        // Ready means ready: the name is already owned.
        #expect(try await bus.waitForName("org.mpris.MediaPlayer2.cloudplayerd", attempts: 1))
        daemon.signal(SIGTERM)
        #expect(try await listener.next().contains("STOPPING=1"))
        let ended = await daemon.wait()
        #expect(ended.status == 0, "\(ended.ending)")
        await bus.stop()
    }

    @Test("a SIGTERM the moment READY=1 is sent stops the daemon cleanly (it was once lost while signals were being set up)")
    func termRightAfterReady() async throws {
        let bus = try await DBusTestBus()
        for attempt in 0..<5 {
            let socketPath = try Fixtures.shared.scratchDirectory().appendingPathComponent("notify-\(attempt)").path
            let listener = try NotifyListener(path: socketPath)
            let daemon = try ChildProcess(BuiltProducts.cloudplayerd, ["daemon", "--output", "null"],
                                          environment: bus.environment.merging(["NOTIFY_SOCKET": socketPath]) { $1 })
            #expect(try await listener.next().contains("READY=1"))
            daemon.signal(SIGTERM)
            #expect(try await listener.next().contains("STOPPING=1"))
            let ended = await daemon.wait()
            #expect(ended.status == 0, "\(ended.ending)")
        }
        await bus.stop()
    }

    @Test("systemd-analyze verifies the user unit")
    func unitVerifies() async throws {
        let scratch = try Fixtures.shared.scratchDirectory()
        let unit = try String(contentsOf: root.appendingPathComponent("packaging/cloudplayerd.service"), encoding: .utf8)
            .replacingOccurrences(of: "/usr/bin/cloudplayerd", with: BuiltProducts.cloudplayerd)
        let path = scratch.appendingPathComponent("cloudplayerd.service")
        try Data(unit.utf8).write(to: path)
        let runtime = scratch.appendingPathComponent("runtime")
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true)
        let result = try await ChildProcess.run("systemd-analyze", ["--user", "verify", "--man=no", path.path],
                                                environment: ["XDG_RUNTIME_DIR": runtime.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains("Unknown"), "\(result.stderr)")
    }

    /// A folder of activatable services holding the shipped file, pointed at this build and at
    /// the null output, `arguments` added (no systemd here to honour SystemdService=, so the bus
    /// runs Exec= itself).
    private func activatableServices(_ arguments: String = "") throws -> URL {
        let services = try Fixtures.shared.scratchDirectory().appendingPathComponent("services")
        try FileManager.default.createDirectory(at: services, withIntermediateDirectories: true)
        let shipped = try String(contentsOf: root.appendingPathComponent("dbus/org.mpris.MediaPlayer2.cloudplayerd.service"),
                                 encoding: .utf8)
        let local = shipped.replacingOccurrences(of: "/usr/bin/cloudplayerd daemon",
                                                 with: "\(BuiltProducts.cloudplayerd) daemon --output null" + (arguments.isEmpty ? "" : " " + arguments))
            .split(separator: "\n").filter { !$0.hasPrefix("SystemdService=") }.joined(separator: "\n")
        try Data(local.utf8).write(to: services.appendingPathComponent("org.mpris.MediaPlayer2.cloudplayerd.service"))
        return services
    }

    @Test("a call to the name starts the daemon (D-Bus activation)")
    func activation() async throws {
        let bus = try await DBusTestBus(serviceDirectory: try activatableServices())
        let status = try await bus.run("busctl", ["--address=\(bus.address)", "get-property", "org.mpris.MediaPlayer2.cloudplayerd",
                                                  "/org/mpris/MediaPlayer2", "org.mpris.MediaPlayer2.Player", "PlaybackStatus"])
        #expect(status.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "s \"Stopped\"", "\(status.stderr)")
        _ = try await bus.run("busctl", ["--address=\(bus.address)", "call", "org.mpris.MediaPlayer2.cloudplayerd",
                                         "/org/mpris/MediaPlayer2", "org.mpris.MediaPlayer2", "Quit"])
        #expect(try await bus.waitForName("org.mpris.MediaPlayer2.cloudplayerd", present: false))
        await bus.stop()
    }

    @Test("started by D-Bus activation with a mistyped key, the daemon stops; cloudplayerctl says why: the config file's path, the line, the key and the key meant")
    func activationWithABrokenConfig() async throws {
        let scratch = try Fixtures.shared.scratchDirectory()
        let config = scratch.appendingPathComponent("config.toml")
        try Data("""
            [[source]]
            name = "nextcloud"
            type = "webdav"
            url = "http://127.0.0.1:9/remote.php/dav/files/anna/"
            username = "anna"
            pasword_file = "~/.config/cloudplayerd/nextcloud.password"

            """.utf8).write(to: config)
        // The daemon's runtime folder and cloudplayerctl's: one, this test's own.
        let runtime = scratch.appendingPathComponent("runtime")
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true)
        let bus = try await DBusTestBus(serviceDirectory: try activatableServices("--config \(config.path)"), environment: ["XDG_RUNTIME_DIR": runtime.path])
        let status = try await ChildProcess.run(BuiltProducts.cloudplayerctl, ["status"],
                                                environment: bus.environment.merging(["XDG_RUNTIME_DIR": runtime.path]) { $1 })
        #expect(status.status == 3, "\(status.stderr)")
        #expect(status.stderr == "cloudplayerctl: cloudplayerd could not start: \(config.path):6: source 'nextcloud'.pasword_file: unknown key; did you mean password_file?\n")
        await bus.stop()
    }
}

/// The receiving end of NOTIFY_SOCKET: a unix datagram socket, as systemd listens.
final class NotifyListener: Sendable {
    private let descriptor: Int32

    init(path: String) throws {
        descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            let bytes = Array(path.utf8.prefix(raw.count - 1))
            raw.copyBytes(from: bytes)
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard descriptor >= 0, bound == 0 else { throw TestSupportError("cannot listen on \(path)") }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
    }

    deinit { close(descriptor) }

    /// The next message (polling, never blocking a thread of the pool).
    func next() async throws -> String {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = recv(descriptor, &buffer, buffer.count, 0)
            if n > 0 { return String(decoding: buffer.prefix(n), as: UTF8.self) }
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}

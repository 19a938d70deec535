import Foundation

/// A private D-Bus session bus for one test: its own `dbus-daemon` on a unix socket in a
/// temporary folder, stopped by `stop()` or else when the test process ends (a `ServerProcess`).
public final class DBusTestBus: Sendable {
    public let address: String
    /// The `XDG_DATA_HOME` of daemons on this bus (their library and saved state): one per
    /// test, so no test restores another's queue, and none touches the user's own.
    public let dataHome: URL
    private let daemon: ServerProcess

    /// `serviceDirectory`: where the bus looks for activatable services (none by default);
    /// `environment`: added to the bus's, which the services it starts inherit.
    public init(serviceDirectory: URL? = nil, environment: [String: String] = [:]) async throws {
        let directory = try Fixtures.shared.scratchDirectory()
        let socket = directory.appendingPathComponent("bus").path
        dataHome = directory.appendingPathComponent("data")
        let configuration = directory.appendingPathComponent("session.conf")
        try Data("""
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <type>session</type>
              <listen>unix:path=\(socket)</listen>
              <auth>EXTERNAL</auth>
              \(serviceDirectory.map { "<servicedir>\($0.path)</servicedir>" } ?? "")
              <policy context="default">
                <allow send_destination="*" eavesdrop="true"/>
                <allow eavesdrop="true"/>
                <allow own="*"/>
              </policy>
            </busconfig>
            """.utf8).write(to: configuration)
        daemon = try ServerProcess("dbus-server", command: #"dbus-daemon --nofork --config-file="$1""#,
                                   arguments: [configuration.path], environment: environment)
        address = "unix:path=\(socket)"
        for _ in 0..<2400 {
            if let result = try? await ChildProcess.run("busctl", ["--address=\(address)", "list"]), result.status == 0 {
                return
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw TestSupportError("the test dbus-daemon did not come up: \(daemon.errorSoFar())")
    }

    /// The environment a client of this bus needs.
    public var environment: [String: String] { ["DBUS_SESSION_BUS_ADDRESS": address, "XDG_DATA_HOME": dataHome.path] }

    /// Runs a client program against this bus.
    public func run(_ executable: String, _ arguments: [String]) async throws -> ProcessResult {
        try await ChildProcess.run(executable, arguments, environment: environment)
    }

    /// Waits until `name` is owned on the bus (true) or `attempts` polls went by (false): by
    /// default about a minute or more, a bound only a daemon that never gets there reaches.
    public func waitForName(_ name: String, present: Bool = true, attempts: Int = 1200) async throws -> Bool {
        for _ in 0..<attempts {
            let listing = try await run("busctl", ["--address=\(address)", "list", "--acquired"])
            if listing.stdout.contains(name + " ") == present { return true }
            try await Task.sleep(for: .milliseconds(50))
        }
        return false
    }

    public func stop() async {
        await daemon.stop()
    }
}

import Foundation

/// Programs this package builds, found beside the running test bundle.
public enum BuiltProducts {
    public static var cloudplayerd: String { product("cloudplayerd") }
    public static var cloudplayerctl: String { product("cloudplayerctl") }

    /// bench/bus's client, which the tests use as a client that calls and calls.
    public static var busbench: String { product("cloudplayerd-busbench") }

    private static func product(_ name: String) -> String {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: executable).deletingLastPathComponent().appendingPathComponent(name).path
    }

    /// What a `cloudplayerd` under test sees unless a test says otherwise: no session bus, so a
    /// test never publishes on the desktop's own bus of whoever runs the suite.
    public static let isolation = ["DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent/cloudplayerd-test-bus"]

    /// Runs `cloudplayerd ARGUMENTS…` to its end.
    public static func runCloudPlayerd(_ arguments: [String], environment: [String: String] = [:]) async throws -> ProcessResult {
        try await ChildProcess.run(cloudplayerd, arguments, environment: isolation.merging(environment) { $1 })
    }
}

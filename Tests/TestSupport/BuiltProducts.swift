import Foundation

/// Programs this package builds, found beside the running test bundle.
public enum BuiltProducts {
    public static var cloudplayerd: String {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: executable).deletingLastPathComponent().appendingPathComponent("cloudplayerd").path
    }

    /// Runs `cloudplayerd ARGUMENTS…` to its end.
    public static func runCloudPlayerd(_ arguments: [String], environment: [String: String] = [:]) async throws -> ProcessResult {
        try await ChildProcess.run(cloudplayerd, arguments, environment: environment)
    }
}

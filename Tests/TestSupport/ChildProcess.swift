import Foundation

/// Runs programs for tests: output goes to temporary files (no pipe can fill up and stall the
/// child), and waiting is a continuation resumed by the termination handler, so no thread of the
/// cooperative pool blocks.
public final class ChildProcess: @unchecked Sendable {
    public let process = Process()
    private let outputURL: URL
    private let errorURL: URL
    private let exited: Task<Void, Never>

    /// Starts `executable` (a path, or a name looked up in PATH) with `arguments`.
    public init(_ executable: String, _ arguments: [String], environment: [String: String] = [:],
                stdin: URL? = nil) throws {
        let directory = FileManager.default.temporaryDirectory
        outputURL = directory.appendingPathComponent("child-\(UUID().uuidString).out")
        errorURL = directory.appendingPathComponent("child-\(UUID().uuidString).err")
        try Data().write(to: outputURL)
        try Data().write(to: errorURL)
        process.executableURL = URL(fileURLWithPath: try Self.resolve(executable))
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardOutput = try FileHandle(forWritingTo: outputURL)
        process.standardError = try FileHandle(forWritingTo: errorURL)
        process.standardInput = try stdin.map { try FileHandle(forReadingFrom: $0) } ?? FileHandle.nullDevice
        let (stream, sink) = AsyncStream.makeStream(of: Void.self)
        process.terminationHandler = { _ in sink.finish() }
        exited = Task { for await _ in stream {} }
        try process.run()
    }

    public var pid: Int32 { process.processIdentifier }

    /// Sends a signal (SIGTERM by default).
    public func signal(_ number: Int32 = SIGTERM) {
        kill(process.processIdentifier, number)
    }

    /// Waits for the process to end and returns what it printed.
    public func wait() async -> ProcessResult {
        await exited.value
        let result = ProcessResult(
            status: process.terminationStatus,
            killedBySignal: process.terminationReason == .uncaughtSignal,
            stdout: (try? String(contentsOf: outputURL, encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOf: errorURL, encoding: .utf8)) ?? "")
        try? FileManager.default.removeItem(at: outputURL)
        try? FileManager.default.removeItem(at: errorURL)
        return result
    }

    /// Standard output so far (for a process still running).
    public func outputSoFar() -> String {
        (try? String(contentsOf: outputURL, encoding: .utf8)) ?? ""
    }

    /// Runs a program to its end.
    public static func run(_ executable: String, _ arguments: [String],
                           environment: [String: String] = [:]) async throws -> ProcessResult {
        try await ChildProcess(executable, arguments, environment: environment).wait()
    }

    /// Runs a program that must succeed; throws with its standard error otherwise.
    @discardableResult
    public static func check(_ executable: String, _ arguments: [String],
                             environment: [String: String] = [:]) async throws -> ProcessResult {
        let result = try await run(executable, arguments, environment: environment)
        guard result.status == 0, !result.killedBySignal else {
            throw TestSupportError("\(executable) \(arguments.joined(separator: " ")) failed (\(result.status)): \(result.stderr)")
        }
        return result
    }

    static func resolve(_ executable: String) throws -> String {
        if executable.contains("/") { return executable }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/\(executable)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        throw TestSupportError("\(executable) is not installed (run packaging/install-deps.sh)")
    }
}

public struct TestSupportError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

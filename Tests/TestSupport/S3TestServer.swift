import Foundation

/// A real S3 server on 127.0.0.1 — moto (`moto_server`) — with one bucket, stopped when the test
/// process ends (a `ServerProcess`). With `checksSignatures`, moto checks every request's SigV4
/// signature against an IAM user's keys made for the test (`INITIAL_NO_AUTH_ACTION_COUNT`: the
/// three requests that make the user go unchecked), so wrong keys are refused as S3 refuses
/// them. moto's own check gets keys with `+` or non-ASCII characters wrong (it refuses
/// botocore's signatures of them too): such keys are read from a server that does not check.
public final class S3TestServer: Sendable {
    public let port: Int
    public let bucket: String
    public let accessKeyID: String
    public let secretAccessKey: String
    public let checksSignatures: Bool
    private let process: ServerProcess

    /// The scripts that drive boto3 and botocore (Tests/S3Tools).
    public static let tools = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("S3Tools")

    public init(bucket: String = "music", checksSignatures: Bool = true) async throws {
        self.bucket = bucket
        self.checksSignatures = checksSignatures
        (port, process) = try await Self.start(checksSignatures: checksSignatures)
        let made = try await Self.script(["setup", String(port), bucket, checksSignatures ? "1" : "0"])
        let keys = made.stdout.split(separator: " ").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        guard keys.count == 2 else { throw TestSupportError("moto setup printed no keys: \(made.stderr)") }
        accessKeyID = keys[0]
        secretAccessKey = keys[1]
    }

    /// moto on a port of its own (`ServerProcess.onOwnPorts`).
    private static func start(checksSignatures: Bool) async throws -> (Int, ServerProcess) {
        let (ports, server) = try await ServerProcess.onOwnPorts("moto_server") { ports in
            try ServerProcess("moto", command: #"moto_server "$@""#, arguments: ["-H", "127.0.0.1", "-p", String(ports[0])],
                              environment: checksSignatures ? ["INITIAL_NO_AUTH_ACTION_COUNT": "3"] : [:])
        }
        return (ports[0], server)
    }

    public var endpoint: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// Uploads each file under its key (one boto3 run for all).
    public func upload(_ files: [(key: String, file: URL)]) async throws {
        try await Self.script(["upload", String(port), bucket, accessKeyID, secretAccessKey] + files.map { "\($0.key)=\($0.file.path)" })
    }

    /// Deletes objects (a track gone from the bucket while it plays).
    public func delete(_ keys: [String]) async throws {
        try await Self.script(["delete", String(port), bucket, accessKeyID, secretAccessKey] + keys)
    }

    /// Uploads `file` `count` times, 100 objects to a folder.
    public func fill(count: Int, with file: URL) async throws {
        try await Self.script(["fill", String(port), bucket, accessKeyID, secretAccessKey, String(count), file.path])
    }

    /// Stops the server now (a source that goes down).
    public func stop() async {
        await process.stop()
    }

    @discardableResult
    private static func script(_ arguments: [String]) async throws -> ProcessResult {
        try await ChildProcess.check("python3", [tools.appendingPathComponent("moto_bucket.py").path] + arguments)
    }
}

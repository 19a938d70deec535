import Foundation

/// A real WebDAV server (`rclone serve webdav`) on 127.0.0.1 with Basic auth, serving a fresh
/// folder, stopped when the test process ends (a `ServerProcess`).
public final class WebDAVTestServer: Sendable {
    public let root: URL
    public let port: Int
    public let username = "anna"
    public let password: String

    /// The certificate a TLS server presents (self-signed, for 127.0.0.1), nil for plain HTTP.
    public let certificate: URL?

    /// Starts a server over a new empty folder; put files in `root`. With `tls`, it serves
    /// HTTPS with a fresh self-signed certificate.
    public init(tls: Bool = false) async throws {
        root = try Fixtures.shared.scratchDirectory().appendingPathComponent("dav")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        password = "pw-\(UUID().uuidString.prefix(12))"
        let folder = root.deletingLastPathComponent()
        let log = folder.appendingPathComponent("rclone.log")
        var tlsArguments: [String] = []
        if tls {
            let key = folder.appendingPathComponent("key.pem"), cert = folder.appendingPathComponent("cert.pem")
            try await ChildProcess.check("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key.path,
                                                     "-out", cert.path, "-days", "2", "-subj", "/CN=127.0.0.1",
                                                     "-addext", "subjectAltName=IP:127.0.0.1"])
            tlsArguments = ["--cert", cert.path, "--key", key.path]
            certificate = cert
        } else {
            certificate = nil
        }
        let server = try ServerProcess("webdav-server", command: #"rclone serve webdav "$@""#,
                                       arguments: [root.path, "--addr", "127.0.0.1:0", "--user", username, "--pass", password,
                                                   "--config", "/dev/null", "--dir-cache-time", "0s",
                                                   "--log-file", log.path] + tlsArguments)
        for _ in 0..<300 {
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            if let range = text.range(of: #"https?://127\.0\.0\.1:(\d+)/"#, options: .regularExpression),
               let port = Int(text[range].split(separator: ":").last!.dropLast()) {
                self.port = port
                return
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        let logged = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        throw TestSupportError("rclone serve webdav did not come up: \(server.errorSoFar())\(logged)")
    }

    public var baseURL: URL { URL(string: "\(certificate == nil ? "http" : "https")://127.0.0.1:\(port)/")! }

    /// Copies a file into the served folder under `name`.
    @discardableResult
    public func publish(_ file: URL, as name: String) throws -> URL {
        let target = root.appendingPathComponent(name)
        try? FileManager.default.removeItem(at: target)
        try FileManager.default.copyItem(at: file, to: target)
        return target
    }
}

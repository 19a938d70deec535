import Foundation

/// A real proxy on 127.0.0.1 for the proxy tests, stopped with the test process (a
/// `ServerProcess`): tinyproxy (HTTP, `CONNECT`, optional Basic auth) or pproxy (SOCKS5). Its own
/// log is the evidence of what went through it. `privateNames` resolve to 127.0.0.1 for the proxy
/// alone (its own mount namespace with its own /etc/hosts): a source at such a name can be
/// reached only through the proxy, so a request that went around it fails.
public final class ProxyTestServer: Sendable {
    public enum Kind: Sendable { case tinyproxy, socks5 }

    public let kind: Kind
    public let port: Int
    public let log: URL
    public let username: String?
    public let password: String?
    private let process: ServerProcess

    public init(_ kind: Kind, credentials: (username: String, password: String)? = nil, privateNames: [String] = []) async throws {
        precondition(kind == .tinyproxy || credentials == nil, "pproxy's SOCKS5 takes no credentials here")
        self.kind = kind
        let folder = try ScratchSpace.directory()
        log = folder.appendingPathComponent(kind == .tinyproxy ? "tinyproxy.log" : "pproxy.log")
        username = credentials?.username
        password = credentials?.password
        let hosts = folder.appendingPathComponent("hosts")
        let system = (try? String(contentsOfFile: "/etc/hosts", encoding: .utf8)) ?? "127.0.0.1 localhost\n"
        try (system + privateNames.map { "127.0.0.1 \($0)\n" }.joined()).write(to: hosts, atomically: true, encoding: .utf8)
        let config = folder.appendingPathComponent("tinyproxy.conf")
        let log = log
        let (ports, server) = try await ServerProcess.onOwnPorts(kind == .tinyproxy ? "tinyproxy" : "pproxy") { ports in
            // One command whose pid is the proxy's: unshare and sh exec into it.
            let server: String
            if kind == .tinyproxy {
                var lines = ["Port \(ports[0])", "Listen 127.0.0.1", "Allow 127.0.0.1", "LogFile \"\(log.path)\"", "LogLevel Info",
                             "MaxClients 100", "Timeout 600"]
                if let credentials { lines.append("BasicAuth \(credentials.username) \(credentials.password)") }
                try (lines.joined(separator: "\n") + "\n").write(to: config, atomically: true, encoding: .utf8)
                server = #"exec tinyproxy -d -c "$2""#
            } else {
                server = #"exec pproxy -l "socks5://127.0.0.1:$2" -v >"$3" 2>&1"#
            }
            return try ServerProcess("proxy", command: #"unshare --mount /bin/sh -c "$1" proxy "$2" "$3" "$4""#,
                                     arguments: [#"mount --bind "$1" /etc/hosts && "# + server, hosts.path,
                                                 kind == .tinyproxy ? config.path : String(ports[0]), log.path],
                                     environment: ["PYTHONUNBUFFERED": "1"])
        }
        (port, process) = (ports[0], server)
    }

    /// The proxy URL as `[network] proxy` or `https_proxy` takes it, with the credentials (or a
    /// wrong `password`) in it.
    public func url(password override: String? = nil, withCredentials: Bool = true) -> String {
        let scheme = kind == .tinyproxy ? "http" : "socks5h"
        guard withCredentials, let username else { return "\(scheme)://127.0.0.1:\(port)" }
        return "\(scheme)://\(username):\(override ?? password ?? "")@127.0.0.1:\(port)"
    }

    public func logText() -> String {
        (try? String(contentsOf: log, encoding: .utf8)) ?? ""
    }

    /// The targets the proxy was asked for, in order: tinyproxy's `CONNECT host:port` and
    /// absolute-URL requests, pproxy's `socks5 CLIENT -> host:port`.
    public func targets() -> [String] {
        logText().split(separator: "\n").compactMap { line -> String? in
            if kind == .socks5 {
                guard line.hasPrefix("socks5 "), let arrow = line.range(of: " -> ") else { return nil }
                return String(line[arrow.upperBound...])
            }
            guard let range = line.range(of: "): ") , line.contains("Request (file descriptor") else { return nil }
            let request = line[range.upperBound...].split(separator: " ")
            return request.count >= 2 ? String(request[0] == "CONNECT" ? request[1] : request[0] + " " + request[1]) : nil
        }
    }

    public func stop() async {
        await process.stop()
    }
}

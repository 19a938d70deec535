import Foundation

/// A real proxy on 127.0.0.1 for the proxy tests, stopped with the test process (a
/// `ServerProcess`): tinyproxy (HTTP, `CONNECT`, optional Basic auth), Squid with Debian's own
/// `/etc/squid/squid.conf` (its rules as shipped: `CONNECT` to port 443 only, forwarded requests
/// to any port above 1024 from this machine) or pproxy (SOCKS5). Its own log is the evidence of
/// what went through it. `privateNames` resolve to 127.0.0.1 for the proxy alone (its own mount
/// namespace with its own /etc/hosts): a source at such a name can be reached only through the
/// proxy, so a request that went around it fails.
public final class ProxyTestServer: Sendable {
    public enum Kind: Sendable, CaseIterable { case tinyproxy, squid, socks5 }

    public let kind: Kind
    public let port: Int
    public let log: URL
    public let username: String?
    public let password: String?
    private let process: ServerProcess

    public init(_ kind: Kind, credentials: (username: String, password: String)? = nil, privateNames: [String] = []) async throws {
        precondition(kind == .tinyproxy || credentials == nil, "only tinyproxy takes credentials here")
        self.kind = kind
        let folder = try ScratchSpace.directory()
        log = folder.appendingPathComponent(kind == .tinyproxy ? "tinyproxy.log" : kind == .squid ? "access.log" : "pproxy.log")
        username = credentials?.username
        password = credentials?.password
        let hosts = folder.appendingPathComponent("hosts")
        let system = (try? String(contentsOfFile: "/etc/hosts", encoding: .utf8)) ?? "127.0.0.1 localhost\n"
        try (system + privateNames.map { "127.0.0.1 \($0)\n" }.joined()).write(to: hosts, atomically: true, encoding: .utf8)
        let config = folder.appendingPathComponent(kind == .squid ? "squid.conf" : "tinyproxy.conf")
        let log = log
        if kind == .squid { try Self.squidFolder(folder) }
        let (ports, server) = try await ServerProcess.onOwnPorts("\(kind)") { ports in
            // One command whose pid is the proxy's: unshare and sh exec into it.
            let server: String
            switch kind {
            case .tinyproxy:
                var lines = ["Port \(ports[0])", "Listen 127.0.0.1", "Allow 127.0.0.1", "LogFile \"\(log.path)\"", "LogLevel Info",
                             "MaxClients 100", "Timeout 600"]
                if let credentials { lines.append("BasicAuth \(credentials.username) \(credentials.password)") }
                try (lines.joined(separator: "\n") + "\n").write(to: config, atomically: true, encoding: .utf8)
                server = #"exec tinyproxy -d -c "$2""#
            case .squid:
                try Self.squidConfig(port: ports[0], folder: folder).write(to: config, atomically: true, encoding: .utf8)
                server = #"exec squid -N -f "$2""#
            case .socks5:
                server = #"exec pproxy -l "socks5://127.0.0.1:$2" -v >"$3" 2>&1"#
            }
            return try ServerProcess("proxy", command: #"unshare --mount /bin/sh -c "$1" proxy "$2" "$3" "$4""#,
                                     arguments: [#"mount --bind "$1" /etc/hosts && "# + server, hosts.path,
                                                 kind == .socks5 ? String(ports[0]) : config.path, log.path],
                                     environment: ["PYTHONUNBUFFERED": "1"])
        }
        (port, process) = (ports[0], server)
    }

    /// Debian's `/etc/squid/squid.conf` as it ships — its ACLs and `http_access` rules — with its
    /// own port on 127.0.0.1 (not 3128), its pid, logs and core files in `folder`, and nothing
    /// kept in a cache: the rules are the ones a Debian Squid applies.
    static func squidConfig(port: Int, folder: URL) throws -> String {
        let shipped = try String(contentsOfFile: "/etc/squid/squid.conf", encoding: .utf8)
        let rules = shipped.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.hasPrefix("http_port") && !$0.hasPrefix("coredump_dir") }
        return (rules + ["http_port 127.0.0.1:\(port)", "pid_filename \(folder.path)/squid.pid",
                         "access_log stdio:\(folder.path)/access.log", "cache_log \(folder.path)/cache.log",
                         "coredump_dir \(folder.path)", "cache deny all", "shutdown_lifetime 0 seconds"]).joined(separator: "\n") + "\n"
    }

    /// Squid drops root for Debian's `proxy` user: its folder is that user's.
    static func squidFolder(_ folder: URL) throws {
        guard let user = getpwnam("proxy") else { throw TestSupportError("no user proxy: is squid installed (packaging/install-deps.sh --test)?") }
        chown(folder.path, user.pointee.pw_uid, user.pointee.pw_gid)
    }

    /// The proxy URL as `[network] proxy` or `https_proxy` takes it, with the credentials (or a
    /// wrong `password`) in it.
    public func url(password override: String? = nil, withCredentials: Bool = true) -> String {
        let scheme = kind == .socks5 ? "socks5h" : "http"
        guard withCredentials, let username else { return "\(scheme)://127.0.0.1:\(port)" }
        return "\(scheme)://\(username):\(override ?? password ?? "")@127.0.0.1:\(port)"
    }

    public func logText() -> String {
        (try? String(contentsOf: log, encoding: .utf8)) ?? ""
    }

    /// The targets the proxy was asked for, in order, each `host:port`: tinyproxy's and Squid's
    /// `CONNECT host:port` and forwarded requests' absolute URLs, pproxy's `socks5 CLIENT -> host:port`.
    public func targets() -> [String] {
        requests().map(\.target)
    }

    /// The requests the proxy was asked, in order: `CONNECT` (a tunnel) or the forwarded
    /// request's method, and `host:port`; for Squid, its result too (`TCP_MISS/200`,
    /// `TCP_TUNNEL/200`, `TCP_DENIED/403`: Squid logs a request once it has ended).
    public func requests() -> [(method: String, target: String, result: String)] {
        logText().split(separator: "\n").compactMap { line -> (String, String, String)? in
            switch kind {
            case .socks5:
                guard line.hasPrefix("socks5 "), let arrow = line.range(of: " -> ") else { return nil }
                return ("CONNECT", String(line[arrow.upperBound...]), "")
            case .tinyproxy:
                guard let range = line.range(of: "): "), line.contains("Request (file descriptor") else { return nil }
                let request = line[range.upperBound...].split(separator: " ")
                return request.count >= 2 ? (String(request[0]), Self.hostPort(request[1]), "") : nil
            case .squid:
                // time elapsed client RESULT/STATUS bytes METHOD URL ...
                let fields = line.split(separator: " ", omittingEmptySubsequences: true)
                return fields.count >= 7 ? (String(fields[5]), Self.hostPort(fields[6]), String(fields[3])) : nil
            }
        }
    }

    /// `host:port` of a `CONNECT`'s target or an absolute URL.
    static func hostPort(_ target: Substring) -> String {
        guard let scheme = target.range(of: "://") else { return String(target) }
        let rest = target[scheme.upperBound...]
        let authority = rest.prefix { $0 != "/" }
        return authority.contains(":") ? String(authority) : String(authority) + (target.hasPrefix("https") ? ":443" : ":80")
    }

    public func stop() async {
        await process.stop()
    }
}

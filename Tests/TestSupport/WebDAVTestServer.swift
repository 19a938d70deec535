import Foundation

/// A real WebDAV server on 127.0.0.1 with Basic auth, serving a fresh folder, stopped when the
/// test process ends (a `ServerProcess`): rclone by default, or another `Kind` — servers state a
/// file's version each their own way.
public final class WebDAVTestServer: Sendable {
    /// Which server.
    public enum Kind: String, Sendable, CaseIterable, CustomStringConvertible {
        /// `rclone serve webdav`: strong ETags in PROPFIND and GET alike.
        case rclone
        /// nginx with its dav module and dav-ext for PROPFIND: no `getetag` in a listing, only
        /// `getlastmodified`; GET gives an ETag and Last-Modified.
        case nginx
        /// WsgiDAV (on cheroot): `getetag` unquoted in a listing, quoted in GET's `ETag`.
        case wsgidav
        /// Apache httpd with mod_dav and mod_dav_fs: a file changed within the second before an
        /// answer gets a weak ETag (`W/"…"`) in that answer, a strong one later.
        case apache

        public var description: String { rawValue }
    }

    public let kind: Kind
    public let root: URL
    public let port: Int
    public let username = "anna"
    public let password: String

    /// The certificate a TLS server presents (self-signed, for 127.0.0.1), nil for plain HTTP.
    public let certificate: URL?
    private let process: ServerProcess

    /// Starts a server over a new empty folder; put files in `root`. With `tls`, it serves
    /// HTTPS with a fresh self-signed certificate (for 127.0.0.1, and for the name the proxy tests' proxies
    /// alone resolve, `dav.behind-proxy.test`). `tagsFollowDate` false: Apache makes its
    /// ETags of a file's inode and size only (`FileETag INode Size`), so a test can move a file's
    /// date, and with it whether its tag is weak, without changing the tag. `port`: rclone's on
    /// a port of the test's choice (443, which Squid's default rules tunnel to), not one it picks.
    public init(_ kind: Kind = .rclone, tls: Bool = false, port fixed: Int? = nil, tagsFollowDate: Bool = true) async throws {
        self.kind = kind
        root = try Fixtures.shared.scratchDirectory().appendingPathComponent("dav")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        password = "pw-\(UUID().uuidString.prefix(12))"
        let folder = root.deletingLastPathComponent()
        switch kind {
        case .rclone: break
        case .nginx:
            certificate = nil
            (port, process) = try await Self.startNginx(root: root, folder: folder, username: username, password: password)
            return
        case .wsgidav:
            certificate = nil
            (port, process) = try await Self.startWsgiDAV(root: root, folder: folder, username: username, password: password)
            return
        case .apache:
            certificate = nil
            (port, process) = try await Self.startApache(root: root, folder: folder, username: username, password: password,
                                                         tagsFollowDate: tagsFollowDate)
            return
        }
        let log = folder.appendingPathComponent("rclone.log")
        var tlsArguments: [String] = []
        if tls {
            let key = folder.appendingPathComponent("key.pem"), cert = folder.appendingPathComponent("cert.pem")
            try await ChildProcess.check("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key.path,
                                                     "-out", cert.path, "-days", "2", "-subj", "/CN=127.0.0.1",
                                                     "-addext", "subjectAltName=IP:127.0.0.1,DNS:dav.behind-proxy.test"])
            tlsArguments = ["--cert", cert.path, "--key", key.path]
            certificate = cert
        } else {
            certificate = nil
        }
        let server = try ServerProcess("webdav-server", command: #"rclone serve webdav "$@""#,
                                       arguments: [root.path, "--addr", "127.0.0.1:\(fixed ?? 0)", "--user", username, "--pass", password,
                                                   "--config", "/dev/null", "--dir-cache-time", "0s",
                                                   "--log-file", log.path] + tlsArguments)
        process = server
        // Two minutes: a bound only a server that hangs on its way up reaches.
        for _ in 0..<2400 {
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

    /// nginx (`ServerProcess.nginx`) with its dav module, and dav-ext for PROPFIND.
    private static func startNginx(root: URL, folder: URL, username: String, password: String) async throws -> (Int, ServerProcess) {
        let users = folder.appendingPathComponent("htpasswd")
        try "\(username):{PLAIN}\(password)\n".write(to: users, atomically: true, encoding: .utf8)
        return try await ServerProcess.nginx(in: folder, modules: ["/usr/lib/nginx/modules/ngx_http_dav_ext_module.so"]) { port in
            """
            access_log off;
            default_type application/octet-stream;
            server {
                listen 127.0.0.1:\(port);
                root \(root.path);
                location / {
                    auth_basic "dav";
                    auth_basic_user_file \(users.path);
                    dav_methods PUT DELETE MKCOL COPY MOVE;
                    dav_ext_methods PROPFIND OPTIONS;
                }
            }
            """
        }
    }

    /// WsgiDAV on cheroot, with a config file in `folder`.
    private static func startWsgiDAV(root: URL, folder: URL, username: String, password: String) async throws -> (Int, ServerProcess) {
        let config = folder.appendingPathComponent("wsgidav.json")
        let (ports, server) = try await ServerProcess.onOwnPorts("WsgiDAV") { ports in
            let settings: [String: Any] = [
                "host": "127.0.0.1", "port": ports[0], "server": "cheroot", "verbose": 1,
                "provider_mapping": ["/": root.path],
                "http_authenticator": ["domain_controller": NSNull(), "accept_basic": true, "accept_digest": false,
                                       "default_to_digest": false],
                "simple_dc": ["user_mapping": ["*": [username: ["password": password]]]],
                "dir_browser": ["enable": false],
            ]
            try JSONSerialization.data(withJSONObject: settings).write(to: config)
            return try ServerProcess("wsgidav", command: #"python3 -m wsgidav.server.server_cli "$@""#,
                                     arguments: ["--config", config.path])
        }
        return (ports[0], server)
    }

    /// Apache httpd in the foreground with a config file of its own in `folder`. Its parent runs
    /// as root, which it needs to bind and to start children as `www-data` (it refuses to serve
    /// as root): that user gets the served folder and the lock folder, and reads the password file.
    private static func startApache(root: URL, folder: URL, username: String, password: String,
                                    tagsFollowDate: Bool) async throws -> (Int, ServerProcess) {
        let users = folder.appendingPathComponent("apache-users")
        let secret = folder.appendingPathComponent("apache-secret")
        try Data(password.utf8).write(to: secret)
        // htpasswd reads the password from its input (-i), so it is in no command line.
        try await ChildProcess.check("htpasswd", ["-i", "-c", "-B", users.path, username], input: .file(secret))
        try FileManager.default.removeItem(at: secret)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: users.path)
        let locks = folder.appendingPathComponent("apache-locks"), runtime = folder.appendingPathComponent("apache-run")
        for directory in [locks, runtime] { try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true) }
        for writable in [root, locks] {
            try FileManager.default.setAttributes([.ownerAccountName: "www-data", .groupOwnerAccountName: "www-data"],
                                                  ofItemAtPath: writable.path)
        }
        let modules = "/usr/lib/apache2/modules"
        let config = folder.appendingPathComponent("apache.conf")
        let (ports, server) = try await ServerProcess.onOwnPorts("Apache") { ports in
            let port = ports[0]
            try """
                ServerRoot \(folder.path)
                ServerName 127.0.0.1
                Listen 127.0.0.1:\(port)
                PidFile \(folder.path)/apache.pid
                DefaultRuntimeDir \(runtime.path)
                ErrorLog \(folder.path)/apache-error.log
                LogLevel warn
                User www-data
                Group www-data
                LoadModule mpm_event_module \(modules)/mod_mpm_event.so
                LoadModule authn_core_module \(modules)/mod_authn_core.so
                LoadModule authn_file_module \(modules)/mod_authn_file.so
                LoadModule authz_core_module \(modules)/mod_authz_core.so
                LoadModule authz_user_module \(modules)/mod_authz_user.so
                LoadModule auth_basic_module \(modules)/mod_auth_basic.so
                LoadModule mime_module \(modules)/mod_mime.so
                LoadModule dav_module \(modules)/mod_dav.so
                LoadModule dav_fs_module \(modules)/mod_dav_fs.so
                TypesConfig /etc/mime.types
                DavLockDB \(locks.path)/lock
                DocumentRoot \(root.path)
                FileETag \(tagsFollowDate ? "MTime Size" : "INode Size")
                <Directory />
                    Require all denied
                </Directory>
                <Directory \(root.path)>
                    Dav On
                    AuthType Basic
                    AuthName "dav"
                    AuthBasicProvider file
                    AuthUserFile \(users.path)
                    Require valid-user
                    Options None
                    AllowOverride None
                </Directory>
                """.write(to: config, atomically: true, encoding: .utf8)
            return try ServerProcess("apache", command: #"/usr/sbin/apache2 "$@""#, arguments: ["-f", config.path, "-DFOREGROUND"])
        }
        return (ports[0], server)
    }

    /// Freezes the server (SIGSTOP) — its connections stay open and silent, as a server's do to a
    /// laptop that slept — or thaws it (SIGCONT). Apache's children serve on: its parent alone is
    /// frozen.
    public func freeze(_ frozen: Bool) {
        process.signalServer(frozen ? SIGSTOP : SIGCONT)
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

import Foundation

/// nginx as the rigs run it (the WebDAV server, the HLS server): in the foreground, one process
/// (no workers to switch user, so it serves as root in CI as it does as anyone else), its config,
/// pid file, logs and temporary files in a scratch folder of its own, on a port of its own.
extension ServerProcess {
    /// Starts nginx with `http` — the `http { }` block's directives, given the port it is to
    /// listen on — in `folder` (its prefix: config, pid, error log, temporary files), loading
    /// `modules` (paths of dynamic modules) first. Returns once nginx itself listens on the port.
    public static func nginx(in folder: URL, modules: [String] = [],
                             http: (_ port: Int) -> String) async throws -> (port: Int, server: ServerProcess) {
        let config = folder.appendingPathComponent("nginx.conf"), errorLog = folder.appendingPathComponent("nginx-error.log")
        let (ports, server) = try await onOwnPorts("nginx") { ports in
            try """
                daemon off;
                master_process off;
                pid \(folder.path)/nginx.pid;
                error_log \(errorLog.path);
                \(modules.map { "load_module \($0);" }.joined(separator: "\n"))
                events { worker_connections 256; }
                http {
                    client_body_temp_path \(folder.path)/nginx-body;
                    \(http(ports[0]))
                }
                """.write(to: config, atomically: true, encoding: .utf8)
            return try ServerProcess("nginx", command: #"nginx "$@""#,
                                     arguments: ["-e", errorLog.path, "-p", folder.path, "-c", config.path])
        }
        return (ports[0], server)
    }
}

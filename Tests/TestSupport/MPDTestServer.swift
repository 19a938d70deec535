import Foundation

/// A real MPD (Debian's `mpd` 0.23) over a music folder, on 127.0.0.1 and a port of its own: the
/// reference that cloudplayerd's MPD server is compared with, and the server the client rigs
/// (`MPC`, `MPDPythonClient`, `NcmpcppSession`, `CantataSession`) are proven against.
///
/// It runs in the foreground (`--no-daemon`) with its log on standard error (`--stderr`, level
/// verbose) under a `ServerProcess`, so it stops when the test process ends however it ends. No
/// audio leaves it (one `null` output), whose software mixer gives `status` a volume, as
/// cloudplayerd's has, so the two answers can be compared field by field. It starts with no database, so it scans the folder as it
/// starts; the initializer returns once it listens on its port *and* its log says
/// `update: finished` — a client then sees the whole library, never a half-scanned one.
public final class MPDTestServer: Sendable {
    public let port: Int
    /// The config, database, state file and playlist folder.
    public let folder: URL
    public let music: URL
    /// When set, a client without it may only read (`default_permissions "read"`).
    public let password: String?
    private let process: ServerProcess

    public init(music: URL, password: String? = nil) async throws {
        let folder = try ScratchSpace.directory()
        let playlists = folder.appendingPathComponent("playlists")
        try FileManager.default.createDirectory(at: playlists, withIntermediateDirectories: true)
        let config = folder.appendingPathComponent("mpd.conf")
        let (ports, server) = try await ServerProcess.onOwnPorts("MPD") { ports in
            // A database left by an attempt that lost its port would make this one skip its scan,
            // and the "update: finished" this waits for would never come.
            for name in ["database", "state"] { try? FileManager.default.removeItem(at: folder.appendingPathComponent(name)) }
            try Self.config(port: ports[0], folder: folder, music: music, password: password)
                .write(to: config, atomically: true, encoding: .utf8)
            return try ServerProcess("mpd", command: #"/usr/bin/mpd --no-daemon --stderr "$1""#, arguments: [config.path])
        }
        (port, process) = (ports[0], server)
        (self.folder, self.music, self.password) = (folder, music, password)
        try await waitForScan()
    }

    private static func config(port: Int, folder: URL, music: URL, password: String?) -> String {
        let access = password.map { "password \"\($0)@read,add,control,admin\"\ndefault_permissions \"read\"" } ?? ""
        return """
            music_directory "\(music.path)"
            db_file "\(folder.path)/database"
            state_file "\(folder.path)/state"
            playlist_directory "\(folder.path)/playlists"
            bind_to_address "127.0.0.1"
            port "\(port)"
            log_level "verbose"
            zeroconf_enabled "no"
            auto_update "no"
            \(access)
            audio_output {
                type "null"
                name "null"
                mixer_type "software"
            }

            """
    }

    /// Waits for the scan MPD starts with to end: its log's `update: finished`. Throws if MPD
    /// ends first, or after two minutes (a bound that only a hung scan reaches).
    private func waitForScan() async throws {
        let finished = try await eventually(within: 120) {
            if process.serverEnded { throw TestSupportError("MPD ended during its first scan: \(log())") }
            return log().contains("update: finished")
        }
        guard finished else { throw TestSupportError("MPD did not finish scanning \(music.path): \(log())") }
    }

    /// MPD's log so far (verbose: every file added, every client connecting, every error).
    public func log() -> String {
        process.errorSoFar()
    }

    /// The pid of the `mpd` process (for /proc/PID/status), nil once it has ended.
    public var pid: pid_t? {
        process.serverProcesses().first
    }

    /// Stops MPD now (it saves its state file as it goes) and waits until it is gone.
    public func stop() async {
        await process.stop()
    }
}

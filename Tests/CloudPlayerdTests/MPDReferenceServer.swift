import Foundation
import TestSupport

/// A real MPD 0.23 (Debian's `mpd`) over a folder: null output with a software mixer (so its
/// `status` has a volume, as cloudplayerd's has), on a port of its own on 127.0.0.1, its
/// database built before it is handed over. (A small rig of this suite's own; Tests/TestSupport's
/// `MPDTestServer` does more.)
enum MPDReferenceServer {
    static func start(music: URL) async throws -> (port: Int, server: ServerProcess) {
        let home = try Fixtures.shared.scratchDirectory()
        let (ports, server) = try await ServerProcess.onOwnPorts("mpd") { ports in
            let config = home.appendingPathComponent("mpd-\(ports[0]).conf")
            try Data("""
                music_directory "\(music.path)"
                db_file "\(home.path)/mpd-\(ports[0]).db"
                state_file "\(home.path)/mpd-\(ports[0]).state"
                bind_to_address "127.0.0.1"
                port "\(ports[0])"
                audio_output {
                    type "null"
                    name "null"
                    mixer_type "software"
                }
                """.utf8).write(to: config)
            return try ServerProcess("mpd", command: "/usr/bin/mpd --no-daemon --stderr $1", arguments: [config.path])
        }
        try await ChildProcess.check("mpc", ["--host", "127.0.0.1", "--port", String(ports[0]), "update", "--wait"])
        return (ports[0], server)
    }
}

import Foundation

/// ncmpcpp (Debian's), the curses MPD client, in a tmux of its own: a test types keys into it and
/// reads its screen, as a person at a terminal would.
///
/// The tmux server runs in the foreground (`tmux -D`) on a socket in a scratch folder under a
/// `ServerProcess`, so it — and ncmpcpp in it — stops when the test process ends; no other tmux
/// (a developer's own) is touched. ncmpcpp gets a HOME of its own (no user config) and the server
/// in MPD_HOST / MPD_PORT (the password as `password@host`, never in its arguments).
public final class NcmpcppSession: Sendable {
    private let tmux: ServerProcess
    private let socket: String
    private let session = "ncmpcpp"

    /// Starts ncmpcpp against 127.0.0.1:`port` on a `columns`×`rows` screen and waits until it
    /// drew its first screen (the play queue's header).
    public init(port: Int, password: String? = nil, columns: Int = 120, rows: Int = 40) async throws {
        let folder = try ScratchSpace.directory()
        let socket = folder.appendingPathComponent("tmux.sock").path
        let home = folder.appendingPathComponent("home")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let tmux = try ServerProcess("tmux", command: #"tmux -S "$1" -f /dev/null -D"#, arguments: [socket])
        guard try await eventually(within: 60, { FileManager.default.fileExists(atPath: socket) }) else {
            throw TestSupportError("tmux did not make its socket: \(tmux.errorSoFar())")
        }
        (self.tmux, self.socket) = (tmux, socket)
        let host = password.map { "\($0)@127.0.0.1" } ?? "127.0.0.1"
        try await ChildProcess.check("tmux", ["-S", socket, "new-session", "-d", "-s", session,
                                              "-x", String(columns), "-y", String(rows),
                                              "-e", "HOME=\(home.path)", "-e", "MPD_HOST=\(host)", "-e", "MPD_PORT=\(port)",
                                              "ncmpcpp"])
        _ = try await waitForScreen(containing: "Playlist")
    }

    /// Types `keys` (tmux key names: "2", "Enter", "Down", "q"; or literal text with `literal`).
    public func send(_ keys: String..., literal: Bool = false) async throws {
        try await ChildProcess.check("tmux", ["-S", socket, "send-keys", "-t", session] + (literal ? ["-l"] : []) + keys)
    }

    /// What the screen shows now, as text.
    public func screen() async throws -> String {
        try await ChildProcess.check("tmux", ["-S", socket, "capture-pane", "-p", "-t", session]).stdout
    }

    /// Waits until the screen shows every one of `texts` at once (a screen's header is drawn
    /// before its lists are filled) and returns the screen; throws with the last screen after
    /// `seconds` (a bound: ncmpcpp redraws within milliseconds of an answer).
    @discardableResult
    public func waitForScreen(containing texts: String..., within seconds: Int = 60) async throws -> String {
        var last = ""
        if try await eventually(within: seconds, {
            last = (try? await screen()) ?? ""
            return texts.allSatisfy(last.contains)
        }) { return last }
        throw TestSupportError("ncmpcpp never showed \(texts); its screen:\n\(last)\ntmux: \(tmux.errorSoFar())")
    }

    /// Ends ncmpcpp and its tmux now.
    public func stop() async {
        await tmux.stop()
    }
}

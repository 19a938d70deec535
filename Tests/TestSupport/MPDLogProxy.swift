import Foundation

/// `Tests/MPDTools/mpd_log_proxy.py` in front of an MPD server: a client connected to `port`
/// talks to the server, and every line it sends (and the first line of each answer) is in `log`
/// — what a real client asked, and what it was told, in order.
public final class MPDLogProxy: Sendable {
    public let port: Int
    public let log: URL
    private let process: ServerProcess

    /// A proxy to 127.0.0.1:`server`, up once it says its port.
    public init(to server: Int) async throws {
        let folder = try ScratchSpace.directory()
        let (log, ready) = (folder.appendingPathComponent("proxy.log"), folder.appendingPathComponent("ready"))
        let process = try ServerProcess("mpd-log-proxy", command: #"python3 "$@""#,
                                        arguments: [MPDTools.script("mpd_log_proxy.py"), "--to", "127.0.0.1:\(server)",
                                                    "--log", log.path, "--ready", ready.path])
        guard try await eventually(within: 60, { FileManager.default.fileExists(atPath: ready.path) }),
              let port = Int(try String(contentsOf: ready, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)) else {
            await process.stop()
            throw TestSupportError("the MPD log proxy never listened: \(process.errorSoFar())")
        }
        (self.port, self.log, self.process) = (port, log, process)
    }

    /// The log's lines so far.
    public func lines() -> [Substring] {
        ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n")
    }

    public func stop() async {
        await process.stop()
    }
}

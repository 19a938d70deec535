import Foundation

/// The one folder where this test process writes its scratch files (fixtures, WAVs, child
/// outputs, daemons' homes): removed when the process exits, and a folder left by a run that
/// died (a crash, a kill) is swept by the next one. Before it, every run left ~2,000 entries
/// and up to hundreds of MB in /tmp.
public enum ScratchSpace {
    private static let prefix = "cloudplayerd-tests-"

    /// `/tmp/cloudplayerd-tests-PID`, made on first use.
    public static let root: URL = {
        let temporary = FileManager.default.temporaryDirectory
        sweepDeadRuns(in: temporary)
        let root = temporary.appendingPathComponent("\(prefix)\(getpid())")
        try? FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(at: ScratchSpace.root) }
        return root
    }()

    /// A new empty folder under `root`.
    public static func directory() throws -> URL {
        let url = root.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// A fresh path under `root` for one file.
    public static func file(_ suffix: String) -> URL {
        root.appendingPathComponent("\(UUID().uuidString)\(suffix)")
    }

    private static func sweepDeadRuns(in temporary: URL) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? []
        for name in names where name.hasPrefix(prefix) {
            guard let pid = pid_t(name.dropFirst(prefix.count)), pid != getpid() else { continue }
            if kill(pid, 0) != 0 && errno == ESRCH {
                try? FileManager.default.removeItem(at: temporary.appendingPathComponent(name))
            }
        }
    }
}

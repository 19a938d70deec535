import FoundationEssentials
import Glibc

/// Why the daemon last failed to start, for whoever started it without seeing its standard
/// error. Started by D-Bus activation, the daemon's words go to the journal (or nowhere), and the
/// caller hears only "exited with status 2"; `cloudplayerctl` reads this file then and prints the
/// reason itself — the config file's path, line and a suggestion. The daemon removes it once it
/// serves. One file per instance, in the runtime folder; its text carries no secret (config
/// errors never quote a value).
package struct LastStartError {
    package let file: URL

    package init(instance: String?) {
        file = XDGDirectories.runtime.appendingPathComponent("start-error" + (instance.map { "-\($0)" } ?? ""))
    }

    /// Records `message`. Best effort: a start that failed must still exit with its status.
    package func record(_ message: String) {
        try? FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true,
                                                 attributes: [.posixPermissions: 0o700])
        try? AtomicFile.write(Data((message + "\n").utf8), to: file, syncingFolder: false)
    }

    /// Forgets the last failure: the daemon now serves.
    package func clear() {
        unlink(file.path)
    }

    /// The recorded reason, if it was recorded at `since` or later (a failure of this start, not
    /// of one long ago).
    package func reason(since: Date) -> String? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: file.path),
              let written = attributes[.modificationDate] as? Date, written >= since,
              let data = FileManager.default.contents(atPath: file.path) else { return nil }
        let text = String(decoding: data.prefix(4096), as: UTF8.self).trimmingWhitespace()
        return text.isEmpty ? nil : text
    }
}

import Base
import Foundation
import Logging

/// The saved `PlaybackState`: JSON, written as an `AtomicFile`, so a crash leaves the old state or
/// the new one, never half of one. Owner-only (0600).
package struct StateFile {
    let url: URL

    /// `$XDG_DATA_HOME/cloudplayerd/state.json` (`state-NAME.json` for a named instance).
    static func `default`(instance: String?) -> StateFile {
        StateFile(url: XDGDirectories.data.appendingPathComponent(instance.map { "state-\($0).json" } ?? "state.json"))
    }

    /// The saved state; nil if there is none or it cannot be read. A damaged file (a crash on a
    /// bad disk, a hand edit) is never fatal: it is set aside as `NAME.damaged-DATE`, said once
    /// in the log, and the daemon starts with an empty queue.
    func load() -> PlaybackState? {
        guard let data = FileManager.default.contents(atPath: url.path) else { return nil }
        do {
            return try JSONDecoder().decode(PlaybackState.self, from: data)
        } catch {
            let logger = Logger(label: "cloudplayerd.state")
            do {
                let aside = try DamagedFile.setAside(url)
                logger.warning("the saved playback state \(url.path) is damaged; set aside as \(aside.lastPathComponent), starting with an empty queue")
            } catch {
                logger.warning("the saved playback state \(url.path) is damaged and \(error); starting with an empty queue")
            }
            return nil
        }
    }

    /// Blocks on the disk: call it off the cooperative pool.
    func save(_ state: PlaybackState) throws {
        let folder = url.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try AtomicFile.write(try JSONEncoder().encode(state), to: url)
    }
}

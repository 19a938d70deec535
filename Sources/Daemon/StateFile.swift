import Base
import Foundation

/// The saved `PlaybackState`: JSON, written as an `AtomicFile`, so a crash leaves the old state or
/// the new one, never half of one. Owner-only (0600).
package struct StateFile {
    let url: URL

    /// `$XDG_DATA_HOME/cloudplayerd/state.json` (`state-NAME.json` for a named instance).
    static func `default`(instance: String?) -> StateFile {
        StateFile(url: XDGDirectories.data.appendingPathComponent(instance.map { "state-\($0).json" } ?? "state.json"))
    }

    /// The saved state; nil if there is none or it cannot be read (a broken file is set aside).
    func load() -> PlaybackState? {
        guard let data = FileManager.default.contents(atPath: url.path) else { return nil }
        guard let state = try? JSONDecoder().decode(PlaybackState.self, from: data) else {
            _ = rename(url.path, url.path + ".broken")
            return nil
        }
        return state
    }

    /// Blocks on the disk: call it off the cooperative pool.
    func save(_ state: PlaybackState) throws {
        let folder = url.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try AtomicFile.write(try JSONEncoder().encode(state), to: url)
    }
}

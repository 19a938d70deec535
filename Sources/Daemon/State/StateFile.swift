import Base
import FoundationEssentials
import Logging

/// One saved record of the daemon's state (`PlaybackState`, `PlaybackPlace`): JSON, written as an
/// `AtomicFile`, so a crash leaves the old record or the new one, never half of one. Owner-only
/// (0600).
struct StateFile<Record: Codable> {
    let url: URL
    /// What starting without the record means, for the log: "starting with an empty queue".
    let withoutIt: String

    /// `$XDG_DATA_HOME/cloudplayerd/NAME.json` (`NAME-INSTANCE.json` for a named instance).
    init(_ name: String, instance: String?, withoutIt: String) {
        url = XDGDirectories.data.appendingPathComponent(instance.map { "\(name)-\($0).json" } ?? "\(name).json")
        self.withoutIt = withoutIt
    }

    /// The saved record; nil if there is none or it cannot be read. A damaged file (a crash on a
    /// bad disk, a hand edit) is never fatal: it is set aside as `NAME.damaged-DATE`, said once
    /// in the log, and the daemon starts without it.
    func load() -> Record? {
        guard let data = FileManager.default.contents(atPath: url.path) else { return nil }
        do {
            return try JSONDecoder().decode(Record.self, from: data)
        } catch {
            let logger = Logger(label: "cloudplayerd.state")
            do {
                let aside = try DamagedFile.setAside(url)
                logger.warning("the saved playback state \(url.path) is damaged; set aside as \(aside.lastPathComponent), \(withoutIt)")
            } catch {
                logger.warning("the saved playback state \(url.path) is damaged and \(error); \(withoutIt)")
            }
            return nil
        }
    }

    /// Blocks on the disk: call it off the cooperative pool.
    /// `syncingFolder: false` for a record written often whose older version is still true (the
    /// place): a crash may bring that back.
    func save(_ record: Record, syncingFolder: Bool = true) throws {
        let folder = url.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try AtomicFile.write(try JSONEncoder().encode(record), to: url, syncingFolder: syncingFolder)
    }
}

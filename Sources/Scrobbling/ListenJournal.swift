import Base
import FoundationEssentials
import Glibc

/// The listens not yet accepted by the service, on disk, oldest first: one JSON line each. A
/// listen is appended and synced before anyone is told it was counted, so no kill -9 or power
/// cut loses it; sent ones are removed by rewriting the file atomically. A crash between the
/// service's answer and that rewrite sends them again, with their own `listenedAt`, which the
/// service records once. A torn last line (a crash mid-append) is skipped, the rest kept.
/// Blocks on the disk: used from the scrobbler's own thread (and read once as the daemon starts).
package struct ListenJournal {
    package let url: URL
    /// The listens in the file, oldest first.
    package private(set) var pending: [Listen] = []

    /// Opens the journal at `url`, reading what an earlier run left.
    package init(url: URL) {
        self.url = url
        guard let data = FileManager.default.contents(atPath: url.path) else { return }
        let decoder = JSONDecoder()
        pending = data.split(separator: UInt8(ascii: "\n")).compactMap { try? decoder.decode(Listen.self, from: Data($0)) }
    }

    /// Keeps `listen` for sending: on disk (synced) before this returns.
    package mutating func append(_ listen: Listen) throws {
        var line = try JSONEncoder().encode(listen)
        line.append(UInt8(ascii: "\n"))
        let folder = url.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let descriptor = open(url.path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw AtomicFileError(path: url.path, step: .open, code: errno) }
        defer { close(descriptor) }
        // A line cut short by an earlier crash must not swallow this one: start on a line of its own.
        if let size = try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int, size > 0, !endsWithNewline() {
            line.insert(UInt8(ascii: "\n"), at: 0)
        }
        let written = line.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        guard written == line.count else { throw AtomicFileError(path: url.path, step: .write, code: written < 0 ? errno : EIO) }
        guard fsync(descriptor) == 0 else { throw AtomicFileError(path: url.path, step: .sync, code: errno) }
        pending.append(listen)
    }

    /// Forgets the first `count` listens: the service has them. If the file cannot be rewritten
    /// they are forgotten here all the same (not sent again and again) and stay in the file,
    /// for a later run to send again — recorded once.
    package mutating func removeFirst(_ count: Int) throws {
        let rest = Array(pending.dropFirst(count))
        pending = rest
        let encoder = JSONEncoder()
        var bytes = Data()
        for listen in rest {
            bytes.append(try encoder.encode(listen))
            bytes.append(UInt8(ascii: "\n"))
        }
        try AtomicFile.write(bytes, to: url)
    }

    private func endsWithNewline() -> Bool {
        let reader = open(url.path, O_RDONLY | O_CLOEXEC)
        guard reader >= 0 else { return true }
        defer { close(reader) }
        var last: UInt8 = 0
        guard lseek(reader, -1, SEEK_END) >= 0, read(reader, &last, 1) == 1 else { return true }
        return last == UInt8(ascii: "\n")
    }
}

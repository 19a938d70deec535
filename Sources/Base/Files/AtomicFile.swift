import FoundationEssentials
import Glibc

/// Replaces a file so that a crash, a full disk or a failed write leaves the old contents or the
/// new ones, never half of them: the bytes go to a new file in the same folder, are synced, and
/// the new file is renamed over the old one; then the folder is synced, so the rename lasts too.
package enum AtomicFile {
    /// Writes `bytes` as `file`, created with permissions `mode` (owner-only unless said; the
    /// umask still applies). On failure the old file is as it was and no temporary file is left
    /// (a crash may leave one: `.NAME.HEX.tmp`, see `isTemporary`).
    ///
    /// `syncingFolder: false` leaves out the folder's sync, which makes the rename last: a crash
    /// may then bring back the old contents (never half of the new). For files written often that
    /// can be rebuilt or whose older version is still true — a cache's range records.
    /// Blocks on the disk: call it off the cooperative pool.
    package static func write(_ bytes: some ContiguousBytes, to file: URL, mode: mode_t = 0o600, syncingFolder: Bool = true) throws {
        let path = file.path
        let folder = file.deletingLastPathComponent().path
        let temporary = folder + "/." + file.lastPathComponent + "." + String(UInt64.random(in: 0...UInt64.max), radix: 16) + ".tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
        guard descriptor >= 0 else { throw AtomicFileError(path: path, step: .create, code: errno) }
        func fail(_ step: AtomicFileError.Step, _ code: Int32, closing: Bool = true) -> AtomicFileError {
            if closing { close(descriptor) }
            unlink(temporary)
            return AtomicFileError(path: path, step: step, code: code)
        }
        if let code = writeAll(bytes, to: descriptor) { throw fail(.write, code) }
        guard fsync(descriptor) == 0 else { throw fail(.sync, errno) }
        // A file system may report a failed write only at close (NFS does).
        guard close(descriptor) == 0 || errno == EINTR else { throw fail(.write, errno, closing: false) }
        guard rename(temporary, path) == 0 else { throw fail(.rename, errno, closing: false) }
        if syncingFolder { try syncFolder(folder, of: path) }
    }

    /// Whether a file name is one of `write`'s temporary files, which a crash may leave behind.
    package static func isTemporary(_ name: String) -> Bool {
        name.hasPrefix(".") && name.hasSuffix(".tmp")
    }

    /// Writes every byte, through short writes and interruptions; the error number if it fails.
    private static func writeAll(_ bytes: some ContiguousBytes, to descriptor: Int32) -> Int32? {
        bytes.withUnsafeBytes { buffer in
            var done = 0
            while done < buffer.count {
                let n = Glibc.write(descriptor, buffer.baseAddress! + done, buffer.count - done)
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { return n < 0 ? errno : EIO }
                done += n
            }
            return nil
        }
    }

    /// Makes the rename in `folder` durable: until its folder is synced, a crash may undo it.
    private static func syncFolder(_ folder: String, of path: String) throws {
        let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw AtomicFileError(path: path, step: .syncFolder, code: errno) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw AtomicFileError(path: path, step: .syncFolder, code: errno) }
    }
}

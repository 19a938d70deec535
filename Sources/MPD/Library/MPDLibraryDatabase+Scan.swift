import Base
import Library

/// `update`'s scans: one at a time, numbered as MPD numbers its update jobs.
extension MPDLibraryDatabase {
    /// The sources a scan walks (those that list their files).
    func scannableSources() async -> [String] {
        await loader.sources.all.filter(\.isScannable).map(\.name)
    }

    /// Starts a scan of `names` through the daemon's scan (Manager1's, with what follows it);
    /// returns its job number, or nil when a scan is running already.
    func startScan(_ names: [String]) async -> Int? {
        guard await scanner(names) else { return nil }
        return jobs.withLock { job in
            job = job % 0x7fff_ffff + 1
            return job
        }
    }
}

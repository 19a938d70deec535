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
        // Numbered before it starts: a scan that ends at once must not leave its job standing.
        guard let job = jobs.withLock({ $0.begin() }) else { return nil }
        guard await scanner(names) else {
            jobs.withLock { if $0.running == job { $0.running = nil } }
            return nil
        }
        return job
    }
}

/// MPD's update jobs: numbered from 1 on, one at a time. A scan started another way (Manager1's)
/// is a job too, so `status` says `updating_db` for it.
struct UpdateJobs {
    private(set) var last = 0
    var running: Int?

    /// Numbers a new job, unless one is under way (nil).
    mutating func begin() -> Int? {
        guard running == nil else { return nil }
        last = last % 0x7fff_ffff + 1
        running = last
        return last
    }

    mutating func follow(_ change: LibraryChange) {
        switch change {
        case .scanStarted: _ = begin()
        case .scanFinished: running = nil
        case .playlistsChanged: break
        }
    }
}

import FoundationEssentials
import Glibc

/// Sets a damaged file aside instead of deleting it: a database or state file that cannot be
/// read is renamed `NAME.damaged-DATE` (with its companions, such as SQLite's `-wal` and `-shm`,
/// under the same date), so the daemon can start afresh while the user — or a recovery tool —
/// still has every byte.
package enum DamagedFile {
    /// Renames `file` and each existing `file + suffix` of `companions`; returns the new name of
    /// `file`, or throws (with nothing renamed) when `file` itself could not be moved. A name
    /// already taken (two damages in one second) gets `-2`, `-3` … appended.
    package static func setAside(_ file: URL, companions: [String] = [], now: Date = Date()) throws -> URL {
        let date = CalendarTime.utc(now.timeIntervalSince1970).basicStamp
        var stamp = "damaged-" + date
        var attempt = 1
        while FileManager.default.fileExists(atPath: file.path + "." + stamp) {
            attempt += 1
            stamp = "damaged-" + date + "-\(attempt)"
        }
        let target = file.path + "." + stamp
        guard rename(file.path, target) == 0 else {
            throw Failure(description: "cannot move \(file.path) aside: \(String(cString: strerror(errno)))")
        }
        for suffix in companions where FileManager.default.fileExists(atPath: file.path + suffix) {
            // SQLite's companions carry the suffix last: library.sqlite-wal → library.sqlite.damaged-DATE-wal.
            _ = rename(file.path + suffix, target + suffix)
        }
        return URL(fileURLWithPath: target)
    }

    /// Why a file could not be set aside, in one line.
    package struct Failure: Error, CustomStringConvertible {
        package let description: String
    }
}

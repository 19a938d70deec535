import Base
import Manager1

/// The line `cloudplayerctl scan` redraws on a terminal while a scan runs.
package enum ScanProgressLine {
    /// One line of progress. The bar's end is fixed from its first moment: the folders the
    /// source's last scan listed (more if this walk finds more); a first scan, whose end nobody
    /// knows, shows its counts without a bar rather than one that jumps back.
    package static func text(_ status: Manager1.ScanStatus) -> String {
        let done = Int(status.foldersDone ?? 0)
        let tracks = "\(Int(status.tracks ?? 0).counted("track")) (\(status.tagsRead ?? 0) read)"
        guard let before = status.foldersBefore, before > 0 else {
            return "\(status.source ?? ""): \(done.counted("folder")) listed, \(tracks)"
        }
        let total = max(Int(before), Int(status.foldersFound ?? 0), done, 1)
        let width = 24
        let filled = width * done / total
        return "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled) + "] "
            + "\(status.source ?? ""): \(done)/\(total) folders, \(tracks)"
    }
}

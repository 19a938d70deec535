import ArgumentParser
import Base
import DBus
import FoundationEssentials
import Glibc
import Manager1

struct ScanCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scan",
        abstract: "Scans sources into the library (every source that can be listed, all but http ones, if none is named).",
        discussion: "Rescans read only new and changed files; tracks no longer found are marked gone. Progress shows on a terminal."
    )

    @OptionGroup var options: GlobalOptions

    @Argument(help: "Sources to scan, by their name in the config file.")
    var sources: [String] = []

    func run() async throws {
        let daemon = try Daemon.connect(options)
        _ = try await daemon.call(Manager1.scan, sources)
        // Progress is a bar redrawn in place, on a terminal only: written as lines into a pipe or
        // a log, each would be out of date by the time it is read, the last one most of all.
        let terminal = isatty(STDERR_FILENO) == 1 && !options.json
        var status: Manager1.ScanStatus
        var raw: [BusValue]
        while true {
            (status, raw) = try await daemon.call(Manager1.scanStatus)
            guard status.running else { break }
            if terminal { StandardStream.error.write("\r\(Self.progress(status))\u{1B}[K") }
            try await Task.sleep(for: .milliseconds(200))
        }
        if terminal { StandardStream.error.write("\r\u{1B}[K") }
        await daemon.close()
        if options.json { return say((raw.first?["reports"] ?? [Manager1.ScanReport]().busValue).json) }
        var failed = false
        for report in status.reports {
            if report.failed {
                failed = true
                say("\(report.source): failed")
            } else {
                say("\(report.source): \(Formatting.count(Int(report.folders), "folder")), \(Formatting.count(Int(report.tracks), "track")) "
                    + "(\(report.tagsRead) read, \(Formatting.bytes(report.bytes)) fetched), "
                    + "\(report.gone) gone, \(Formatting.count(Int(report.playlists), "playlist"))")
            }
            for problem in report.problems { say("  " + TextTable.printable(problem)) }
        }
        if failed { throw ExitCode(1) }
    }

    /// One line of progress: a bar over the folders found so far, and counts.
    static func progress(_ status: Manager1.ScanStatus) -> String {
        let done = status.foldersDone ?? 0
        let found = max(status.foldersFound ?? 1, done, 1)
        let counts = "\(status.source ?? ""): \(done)/\(found) folders, \(Formatting.count(Int(status.tracks ?? 0), "track")), "
            + "\(status.tagsRead ?? 0) read"
        let width = 24
        let filled = Int(Double(width) * Double(done) / Double(found))
        return "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled) + "] " + counts
    }
}

import ArgumentParser
import Base
import DBus
import FoundationEssentials
import Glibc
import Manager1

struct ScanCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scan",
        abstract: "Scans sources into the library (all webdav, local and feed sources if none is named).",
        discussion: "Rescans read only new and changed files; tracks no longer found are marked gone."
    )

    @OptionGroup var options: GlobalOptions

    @Argument(help: "Sources to scan, by their name in the config file.")
    var sources: [String] = []

    func run() async throws {
        let daemon = try Daemon.connect(options)
        _ = try await daemon.call(Manager1.scan, sources)
        let terminal = isatty(STDERR_FILENO) == 1 && !options.json
        var lastLine = ""
        var lastPrinted = ContinuousClock.now - .seconds(10)
        var status: Manager1.ScanStatus
        var raw: [BusValue]
        while true {
            (status, raw) = try await daemon.call(Manager1.scanStatus)
            guard status.running else { break }
            let line = Self.progress(status, bar: terminal)
            if terminal {
                StandardStream.error.write("\r\(line)\u{1B}[K")
            } else if line != lastLine, lastPrinted.duration(to: .now) >= .seconds(1) {
                StandardStream.error.writeLine(line)
                lastPrinted = .now
                lastLine = line
            }
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
                say("\(report.source): \(report.folders) folders, \(report.tracks) tracks "
                    + "(\(report.tagsRead) read, \(Formatting.bytes(report.bytes)) fetched), "
                    + "\(report.gone) gone, \(report.playlists) playlists")
            }
            for problem in report.problems { say("  " + TextTable.printable(problem)) }
        }
        if failed { throw ExitCode(1) }
    }

    /// One line of progress: a bar over the folders found so far, and counts.
    static func progress(_ status: Manager1.ScanStatus, bar: Bool) -> String {
        let done = status.foldersDone ?? 0
        let found = max(status.foldersFound ?? 1, done, 1)
        let counts = "\(status.source ?? ""): \(done)/\(found) folders, \(status.tracks ?? 0) tracks, "
            + "\(status.tagsRead ?? 0) read"
        guard bar else { return counts }
        let width = 24
        let filled = Int(Double(width) * Double(done) / Double(found))
        return "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled) + "] " + counts
    }
}

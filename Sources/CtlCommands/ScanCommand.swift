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
            if terminal { StandardStream.error.write("\r\(ScanProgressLine.text(status))\u{1B}[K") }
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
                say("\(report.source): \(Int(report.folders).counted("folder")), \(Int(report.tracks).counted("track")) "
                    + "(\(report.tagsRead) read, \(Formatting.bytes(report.bytes)) fetched), "
                    + "\(report.gone) gone, \(Int(report.playlists).counted("playlist"))")
            }
            // Under the source's own line: without its name again.
            for problem in report.problems {
                say("  " + TextTable.printable(problem.hasPrefix(report.source + ": ") ? String(problem.dropFirst(report.source.count + 2)) : problem))
            }
        }
        if failed { throw ExitCode(1) }
    }
}

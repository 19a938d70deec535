import ArgumentParser
import DBus
import Foundation

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
        _ = try await daemon.call("Scan", [.strings(sources)])
        let terminal = isatty(STDERR_FILENO) == 1 && !options.json
        var lastLine = ""
        var lastPrinted = ContinuousClock.now - .seconds(10)
        var status: BusData
        while true {
            status = try await daemon.value("ScanStatus")
            guard status["running"]?.flag == true else { break }
            let line = Self.progress(status, bar: terminal)
            if terminal {
                FileHandle.standardError.write(Data("\r\(line)\u{1B}[K".utf8))
            } else if line != lastLine, lastPrinted.duration(to: .now) >= .seconds(1) {
                FileHandle.standardError.write(Data("\(line)\n".utf8))
                lastPrinted = .now
                lastLine = line
            }
            try await Task.sleep(for: .milliseconds(200))
        }
        if terminal { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
        await daemon.close()
        let reports = status["reports"] ?? .array([])
        if options.json { return say(reports.json) }
        var failed = false
        for report in reports.elements {
            let name = report["source"]?.text ?? "?"
            if report["failed"]?.flag == true {
                failed = true
                say("\(name): failed")
            } else {
                say("\(name): \(report["folders"]?.integer ?? 0) folders, \(report["tracks"]?.integer ?? 0) tracks "
                    + "(\(report["tags_read"]?.integer ?? 0) read, \(Formatting.bytes(report["bytes"]?.integer ?? 0)) fetched), "
                    + "\(report["gone"]?.integer ?? 0) gone, \(report["playlists"]?.integer ?? 0) playlists")
            }
            for problem in report["problems"]?.elements.compactMap(\.text) ?? [] { say("  " + TextTable.printable(problem)) }
        }
        if failed { throw ExitCode(1) }
    }

    /// One line of progress: a bar over the folders found so far, and counts.
    static func progress(_ status: BusData, bar: Bool) -> String {
        let done = status["folders_done"]?.integer ?? 0
        let found = max(status["folders_found"]?.integer ?? 1, done, 1)
        let counts = "\(status["source"]?.text ?? ""): \(done)/\(found) folders, \(status["tracks"]?.integer ?? 0) tracks, "
            + "\(status["tags_read"]?.integer ?? 0) read"
        guard bar else { return counts }
        let width = 24
        let filled = Int(Double(width) * Double(done) / Double(found))
        return "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled) + "] " + counts
    }
}

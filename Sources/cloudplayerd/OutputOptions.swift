import ArgumentParser
import Base
import Daemon
import FoundationEssentials
import Logging
import Output

/// Options every command that plays shares: where the sound goes, and diagnostics.
struct OutputOptions: ParsableArguments {
    @Option(name: .shortAndLong, help: "Where the sound goes: pulse, pulse:SINK, wav:PATH or null.")
    var output: OutputSpec = .pulse(sink: nil)

    @Flag(help: "With --output null: decode as fast as possible instead of in real time (for benchmarks).")
    var unpaced = false

    @Option(help: ArgumentHelp("Diagnostics on standard error: trace, debug, info, notice, warning, error; "
                               + "by default warning (the daemon: notice, info into the systemd journal).",
                               valueName: "level"))
    var logLevel: Logger.Level?

    func validate() throws {
        if unpaced && output != .null { throw ValidationError("--unpaced goes with --output null.") }
    }

    /// Sets up logging and opens the output; on failure says why on one line and exits 2.
    /// `journal` (the daemon): when standard error is the systemd journal, log there with
    /// priorities and fields (the daemon under its unit), at info unless asked otherwise; else at
    /// notice unless asked otherwise — a track skipped, a station lost, reach the user's terminal
    /// (`play` says those on its own lines, and logs from warning on).
    /// The reason of a failure is also told to `failed`.
    func openDevice(journal: Bool = false, failed: (String) -> Void = { _ in }) async throws -> any AudioOutput {
        let toJournal = journal && JournalLogHandler.isConnected
        // Unless asked: `play` from warning on; the daemon from notice on, from info into the journal.
        let level = logLevel ?? (!journal ? .warning : toJournal ? .info : .notice)
        LoggingSystem.bootstrap { label in
            if toJournal {
                var handler = JournalLogHandler(label: label)
                handler.logLevel = level
                return handler
            }
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        do {
            return try await output.makeOutput(paced: !unpaced)
        } catch let error as OutputError {
            var message = "\(error)"
            if case .serverUnreachable = error {
                message += ". Is PulseAudio (or PipeWire's pulse server) running? To play without one: --output null, or --output wav:FILE."
            }
            complain(message)
            failed(message)
            throw ExitCode(2)
        }
    }
}

/// One line to standard error, prefixed with the program's name.
func complain(_ message: String) {
    StandardStream.error.writeLine("cloudplayerd: \(message)")
}

/// One line to standard output, unbuffered: a line per event, even into a pipe or a file.
func say(_ line: String) {
    StandardStream.output.writeLine(line)
}

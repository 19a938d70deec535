import ArgumentParser
import CloudPlayerCore
import Foundation
import Logging

struct PlayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "play",
        abstract: "Play files in order, gaplessly, then exit.",
        discussion: """
            Formats are recognised from the bytes (MP3, Opus), not from file names. A track that \
            cannot be played is reported on one line and skipped; the exit status is then 1.

            Outputs:
              pulse        the default PulseAudio sink
              pulse:SINK   a named PulseAudio sink
              wav:PATH     a WAV file, written as fast as decoding goes;
                           the files must share one sample rate and channel count
              null         nowhere, at the pace of real time
                           (with --unpaced: as fast as decoding goes)

            SIGINT (Ctrl-C) and SIGTERM stop playback cleanly.
            """
    )

    @Argument(help: "Audio files to play, in order.", completion: .file())
    var files: [String]

    @Option(name: .shortAndLong, help: "Where the sound goes: pulse, pulse:SINK, wav:PATH or null.")
    var output: OutputSpec = .pulse(sink: nil)

    @Option(help: ArgumentHelp("Start the first file this many seconds in (sample-accurate).", valueName: "seconds"))
    var start: Double = 0

    @Option(help: ArgumentHelp("Volume, 0 to 1 (PulseAudio only).", valueName: "level"))
    var volume: Double = 1

    @Flag(help: "With --output null: decode as fast as possible instead of in real time (for benchmarks).")
    var unpaced = false

    @Flag(name: .shortAndLong, help: "Print only errors.")
    var quiet = false

    @Option(help: ArgumentHelp("Diagnostics on standard error: trace, debug, info, notice, warning, error.",
                               valueName: "level"))
    var logLevel: Logger.Level = .warning

    func validate() throws {
        guard !files.isEmpty else { throw ValidationError("Give at least one file to play.") }
        guard start >= 0, start.isFinite else { throw ValidationError("--start must be zero or more seconds.") }
        guard volume >= 0, volume.isFinite else { throw ValidationError("--volume must be zero or more.") }
        if unpaced && output != .null { throw ValidationError("--unpaced goes with --output null.") }
    }

    func run() async throws {
        let level = logLevel
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let device: any AudioOutput
        do {
            device = try await output.makeOutput(paced: !unpaced)
        } catch let error as OutputError {
            if case .serverUnreachable = error {
                Self.complain("\(error). Is PulseAudio (or PipeWire's pulse server) running? "
                    + "To play without one: --output null, or --output wav:FILE.")
            } else {
                Self.complain("\(error)")
            }
            throw ExitCode(2)
        }

        let player = Player(output: OutputActor(device: device))
        let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
        let entries = await player.library.enqueue(files.map { URL(fileURLWithPath: $0, relativeTo: cwd).standardizedFileURL })
        let watcher = SignalWatcher()
        let signals = watcher.signals
        let interruption = Task.detached {
            for await _ in signals {
                // A second Ctrl-C, should stopping ever hang, ends the process the usual way.
                signal(SIGINT, SIG_DFL)
                signal(SIGTERM, SIG_DFL)
                await player.shutdown()
                return
            }
        }

        await player.perform(.setVolume(volume))
        await player.perform(.playEntry(entries[0].id, at: start))
        var failures = 0
        for await event in player.events {
            switch event {
            case .trackStarted(let entry, let info, _):
                if !quiet { Self.say("Playing \(entry.displayName)\(Self.describe(info))") }
            case .trackFailed(let entry, let error):
                failures += 1
                Self.complain("\(entry.url.path): \(error)")
            case .outputFailed(let error):
                failures += 1
                Self.complain("\(error)")
                await player.shutdown()
            case .queueFinished:
                await player.shutdown()
            case .statusChanged, .trackEnded, .seeked:
                break
            }
        }
        interruption.cancel()
        withExtendedLifetime(watcher) {}
        do {
            try await device.close()
        } catch {
            failures += 1
            Self.complain("\(error)")
        }
        if failures > 0 { throw ExitCode.failure }
    }

    private static func describe(_ info: TrackInfo) -> String {
        var parts: [String] = []
        let names = [info.tags.artist, info.tags.title].compactMap { $0 }
        if !names.isEmpty { parts.append(names.joined(separator: " – ")) }
        var technical = "\(info.codec.rawValue), \(info.format)"
        if let duration = info.duration {
            let whole = Int(duration.rounded())
            technical += String(format: ", %d:%02d", whole / 60, whole % 60)
        }
        parts.append("(\(technical))")
        return ": " + parts.joined(separator: " ")
    }

    /// One line to standard output, unbuffered: a line per event, even into a pipe or a file.
    static func say(_ line: String) {
        FileHandle.standardOutput.write(Data("\(line)\n".utf8))
    }

    static func complain(_ message: String) {
        FileHandle.standardError.write(Data("cloudplayerd: \(message)\n".utf8))
    }
}

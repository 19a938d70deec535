import ArgumentParser
import Manager1

/// The ordinary controls, so no second tool is needed: each one `Control` call to the daemon.
enum ControlCommands {
    static let all: [any ParsableCommand.Type] = [Play.self, Pause.self, Toggle.self, Stop.self, Next.self, Previous.self,
                                                  Seek.self, Forward.self, Back.self, Volume.self, Speed.self, Sleep.self, StopAfter.self]

    static func send(_ options: GlobalOptions, _ command: String, _ value: Double = 0) async throws {
        _ = try await Daemon.call(options, Manager1.control, command, value)
    }

    /// Sends a control whose value is a time as people type it (42, 1:30, 90s), times `sign`.
    static func send(_ options: GlobalOptions, _ command: String, time text: String, sign: Double = 1) async throws {
        guard let seconds = ClockText.seconds(text) else {
            throw ValidationError("'\(text)' is not a time such as 42, 1:30 or 90s.")
        }
        try await send(options, command, sign * seconds)
    }

    /// A control without an argument: its name on the command line and in the `Control` call.
    protocol Plain: AsyncParsableCommand {
        static var control: String { get }
        var options: GlobalOptions { get }
    }

    struct Play: Plain {
        static let configuration = CommandConfiguration(commandName: "play", abstract: "Plays (resumes where it was paused).")
        static let control = "play"
        @OptionGroup var options: GlobalOptions
    }

    struct Pause: Plain {
        static let configuration = CommandConfiguration(commandName: "pause", abstract: "Pauses.")
        static let control = "pause"
        @OptionGroup var options: GlobalOptions
    }

    struct Toggle: Plain {
        static let configuration = CommandConfiguration(commandName: "toggle", abstract: "Plays if paused, pauses if playing.")
        static let control = "toggle"
        @OptionGroup var options: GlobalOptions
    }

    struct Stop: Plain {
        static let configuration = CommandConfiguration(commandName: "stop", abstract: "Stops (the queue stays).")
        static let control = "stop"
        @OptionGroup var options: GlobalOptions
    }

    struct Next: Plain {
        static let configuration = CommandConfiguration(commandName: "next", abstract: "Plays the next track.")
        static let control = "next"
        @OptionGroup var options: GlobalOptions
    }

    struct Previous: Plain {
        static let configuration = CommandConfiguration(commandName: "prev", abstract: "Plays the previous track (or this one from its start).")
        static let control = "previous"
        @OptionGroup var options: GlobalOptions
    }

    struct Seek: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "seek", abstract: "Jumps to a place in the track: 42, 1:30 or 1:02:03.")
        @OptionGroup var options: GlobalOptions
        @Argument(help: "Where: seconds, or minutes:seconds, or hours:minutes:seconds.") var position: String
        func run() async throws { try await send(options, "seek", time: position) }
    }

    struct Forward: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "forward", abstract: "Jumps ahead (10 s unless told).")
        @OptionGroup var options: GlobalOptions
        @Argument(help: "Seconds, or minutes:seconds.") var by: String = "10"
        func run() async throws { try await send(options, "skip", time: by) }
    }

    struct Back: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "back", abstract: "Jumps back (10 s unless told).")
        @OptionGroup var options: GlobalOptions
        @Argument(help: "Seconds, or minutes:seconds.") var by: String = "10"
        func run() async throws { try await send(options, "skip", time: by, sign: -1) }
    }

    struct Volume: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "volume", abstract: "Sets the volume: 50% or 0.5 (up to 150%).")
        @OptionGroup var options: GlobalOptions
        @Argument(help: "A percentage (50%) or a fraction of full volume (0.5).") var level: String
        func run() async throws {
            let percent = level.hasSuffix("%")
            guard let number = Double(percent ? String(level.dropLast()) : level), number.isFinite else {
                throw ValidationError("'\(level)' is not a volume such as 50% or 0.5.")
            }
            try await send(options, "volume", percent ? number / 100 : number)
        }
    }

    struct Speed: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "speed",
            abstract: "Plays the current track faster or slower, its pitch kept: speed 1.5 (0.5 to 3); without a number, says the speed.")
        @OptionGroup var options: GlobalOptions
        @Argument(help: "Times the recorded pace: 1.5, or 150%.") var speed: String?
        func run() async throws {
            guard let speed else {
                let (status, _) = try await Daemon.call(options, Manager1.status)
                return say("\(Self.text(status.speed ?? 1))×")
            }
            let percent = speed.hasSuffix("%")
            guard let number = Double(percent ? String(speed.dropLast()) : speed), number.isFinite else {
                throw ValidationError("'\(speed)' is not a speed such as 1.5 or 150%.")
            }
            try await send(options, "speed", percent ? number / 100 : number)
        }

        /// 1.5, 2, 0.75: as people say a speed.
        static func text(_ speed: Double) -> String {
            let rounded = (speed * 100).rounded() / 100
            return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
        }
    }
}

extension ControlCommands {
    struct Sleep: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "sleep",
            abstract: "Fades out over the last 10 s and pauses after a while: sleep 30m, sleep 1h30m; sleep chapter pauses where the next chapter starts; sleep off; sleep alone shows what is left.")
        @OptionGroup var options: GlobalOptions
        @Argument(help: "How long: 90s, 10m, 1h30m (or 1:30:00); chapter: at the end of the chapter (of the track, without chapters); off cancels.")
        var duration: String?
        func run() async throws {
            guard let duration else {
                let (status, raw) = try await Daemon.call(options, Manager1.status)
                if options.json { return say(raw.json) }
                if status.sleepAtChapterEnd == true { return say("pauses at the end of the chapter") }
                return say(status.sleepLeft.map { "pauses in \(Formatting.duration($0))" } ?? "no sleep timer")
            }
            if duration == "off" {
                try await send(options, "sleep-chapter", 0)
                return try await send(options, "sleep", 0)
            }
            if duration == "chapter" { return try await send(options, "sleep-chapter", 1) }
            guard let seconds = ClockText.seconds(duration), seconds > 0 else {
                throw ValidationError("'\(duration)' is not a duration such as 90s, 10m or 1h30m.")
            }
            try await send(options, "sleep", seconds)
        }
    }

    struct StopAfter: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "stop-after",
                                                        abstract: "Stops when the current track ends; stop-after off cancels.")
        @OptionGroup var options: GlobalOptions
        @Argument(help: "off cancels.") var off: String?
        func run() async throws {
            guard off == nil || off == "off" else { throw ValidationError("stop-after takes nothing, or off.") }
            try await send(options, "stop-after", off == nil ? 1 : 0)
        }
    }
}

extension ControlCommands.Plain {
    func run() async throws { try await ControlCommands.send(options, Self.control) }
}

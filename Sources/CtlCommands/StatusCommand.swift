import ArgumentParser
import DBus
import Manager1

struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "status", abstract: "What is playing, the queue, the library.")

    @OptionGroup var options: GlobalOptions

    func run() async throws {
        let (status, raw) = try await Daemon.call(options, Manager1.status)
        if options.json { return say(raw.json) }
        var line = status.status
        if let title = status.title {
            line += ": \(title)"
            if let artist = status.artist, !artist.isEmpty { line += " — \(artist)" }
            let position = Formatting.duration(status.position)
            let duration = Formatting.duration(status.duration)
            if !position.isEmpty { line += "  \(position)" + (duration.isEmpty ? "" : " / \(duration)") }
        }
        if let speed = status.speed { line += "  at \(ControlCommands.Speed.text(speed))×" }
        if status.live == true { line += "  (live)" }
        say(TextTable.printable(line))
        if let failure = status.failure { say(TextTable.printable("could not play " + failure)) }
        if let codec = status.codec { say(Self.format(codec, status)) }
        if let song = status.songTitle {
            say(TextTable.printable("now: " + [status.songArtist, song].compactMap { $0 }.joined(separator: " – ")))
        }
        if let chapters = status.chapters, !chapters.isEmpty {
            let current = status.chapter.map { Int($0) }.flatMap { chapters.indices.contains($0) ? $0 : nil }
            say(TextTable.printable("chapter \(current.map { String($0 + 1) } ?? "–")/\(chapters.count)"
                                    + (current.map { ": \(chapters[$0].title)" } ?? "")))
            for chapterLine in ChapterCommands.lines(chapters, current: status.chapter) { say("  " + chapterLine) }
        }
        let volume = Int((status.volume * 100).rounded())
        say("queue: \(Int(status.queueLength).counted("track")) · volume \(volume)% · loop \(Self.loop(status.loop))"
            + " · shuffle \(status.shuffle ? "on" : "off")"
            + (status.sleepLeft.map { " · sleep in \(Formatting.duration($0))" } ?? "")
            + (status.sleepAtChapterEnd == true ? " · sleep at the chapter's end" : "")
            + (status.stopAfter == true ? " · stops after this track" : "")
            + (status.silenceSkipped.map { " · silence skipped: \(Formatting.duration($0)) saved" } ?? ""))
        if let problem = status.scrobbleProblem {
            say(TextTable.printable("scrobbling: paused — \(problem)"))
        } else if let waiting = status.listensWaiting {
            say("scrobbling: ListenBrainz" + (waiting > 0 ? " · \(waiting) listen\(waiting == 1 ? "" : "s") waiting" : ""))
        }
        if let problem = status.libraryProblem {
            say("library: unavailable — \(problem)")
        } else {
            say("library: \(Int(status.libraryTracks ?? 0).counted("track")) · \(Int(status.playlists ?? 0).counted("playlist"))"
                + (status.scanning ? " · scanning" : ""))
        }
    }

    /// The current track as decoded: "FLAC · 44.1 kHz · 16 bit · stereo · 912 kbit/s".
    static func format(_ codec: String, _ status: Manager1.Status) -> String {
        var parts = [codec]
        if let rate = status.sampleRate {
            let kilohertz = Double(rate) / 1000
            parts.append((kilohertz == kilohertz.rounded() ? String(Int(kilohertz)) : String(kilohertz)) + " kHz")
        }
        if let bits = status.bits { parts.append("\(bits) bit") }
        if let channels = status.channels {
            parts.append(channels == 1 ? "mono" : channels == 2 ? "stereo" : "\(channels) channels")
        }
        if let bitrate = status.bitrate { parts.append("\(bitrate) kbit/s") }
        return TextTable.printable(parts.joined(separator: " · "))
    }

    /// MPRIS's `LoopStatus`, which Manager1 carries, as people say it: off, track, playlist.
    static func loop(_ status: String) -> String {
        status == "None" ? "off" : status.lowercased()
    }
}

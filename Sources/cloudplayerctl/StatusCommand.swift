import ArgumentParser

struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "status", abstract: "What is playing, the queue, the library.")

    @OptionGroup var options: GlobalOptions

    func run() async throws {
        let status = try await Daemon.value(options, "Status")
        if options.json { return say(status.json) }
        var line = status["status"]?.text ?? "?"
        if let title = status["title"]?.text {
            line += ": \(title)"
            if let artist = status["artist"]?.text, !artist.isEmpty { line += " — \(artist)" }
            let position = Formatting.duration(status["position"]?.number)
            let duration = Formatting.duration(status["duration"]?.number)
            if !position.isEmpty { line += "  \(position)" + (duration.isEmpty ? "" : " / \(duration)") }
        }
        say(TextTable.printable(line))
        let volume = Int(((status["volume"]?.number ?? 1) * 100).rounded())
        say("queue: \(status["queue_length"]?.integer ?? 0) tracks · volume \(volume)% · loop \(status["loop"]?.text ?? "None")"
            + " · shuffle \(status["shuffle"]?.flag == true ? "on" : "off")")
        if let problem = status["library_problem"]?.text {
            say("library: unavailable — \(problem)")
        } else {
            say("library: \(status["library_tracks"]?.integer ?? 0) tracks · \(status["playlists"]?.integer ?? 0) playlists"
                + (status["scanning"]?.flag == true ? " · scanning" : ""))
        }
    }
}

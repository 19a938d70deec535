import ArgumentParser
import Manager1

/// `mark played|unplayed ID…`: a long track (a podcast episode) heard or not, whatever was played.
struct MarkCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "mark",
                                                    abstract: "Marks library tracks played or unplayed (either way they start from their start).")

    enum State: String, ExpressibleByArgument, CaseIterable {
        case played, unplayed
    }

    @OptionGroup var options: GlobalOptions
    @Argument(help: "played or unplayed.") var state: State
    @Argument(help: "Library track ids (from ls or search).") var tracks: [String]

    func run() async throws {
        _ = try await Daemon.call(options, Manager1.mark, state == .played, tracks)
    }
}

import ArgumentParser

@main
struct CloudPlayerd: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cloudplayerd",
        abstract: "Plays music kept in the cloud as if it were on the disk.",
        subcommands: [PlayCommand.self, DaemonCommand.self]
    )
}

import ArgumentParser

struct CloudPlayerd: AsyncParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "cloudplayerd",
            abstract: "Plays music kept in the cloud as if it were on the disk.",
            version: VersionReport.text,
            subcommands: [PlayCommand.self, DaemonCommand.self]
        )
    }
}

import ArgumentParser
import Manager1

/// `cloudplayerctl`: the development build's own executable runs it, and so does `cloudplayerd`
/// started under that name — the package ships one program, `cloudplayerctl` a link to it.
package struct CloudPlayerCtl: AsyncParsableCommand {
    package init() {}

    package static let configuration = CommandConfiguration(
        commandName: "cloudplayerctl",
        abstract: "Manages the cloudplayerd daemon: its library, queue, playlists and cache, and plays, pauses, seeks.",
        discussion: """
            Talks to the running daemon over org.cloudplayerd.Manager1 on the session bus. \
            Tables for people by default, --json for scripts. Exit status: 0 done, 1 the daemon \
            refused (the message says why), 3 the daemon is not running.
            """,
        version: "cloudplayerctl \(Manager1.productVersion)",
        subcommands: [StatusCommand.self, ScanCommand.self, ListCommand.self, SearchCommand.self, QueueCommand.self,
                      PlaylistCommand.self, SourcesCommand.self, CacheCommand.self, MarkCommand.self, LoginCommand.self, SecretsCommand.self] + ControlCommands.all
            + [ChapterCommands.Chapter.self, ChapterCommands.Chapters.self]
    )
}

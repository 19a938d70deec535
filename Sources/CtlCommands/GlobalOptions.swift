import ArgumentParser

/// Options every command takes.
struct GlobalOptions: ParsableArguments {
    @Flag(help: "Print JSON instead of tables (for scripts).")
    var json = false

    @Option(help: ArgumentHelp("Talk to the daemon started with --instance NAME.", valueName: "name"))
    var instance: String?
}

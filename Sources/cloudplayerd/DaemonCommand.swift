import ArgumentParser
import CloudPlayerCore
import Foundation

struct DaemonCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "daemon",
        abstract: "Run in the background, controlled over MPRIS (media keys, playerctl, desktop widgets).",
        discussion: """
            Publishes org.mpris.MediaPlayer2.cloudplayerd on the session bus (from \
            DBUS_SESSION_BUS_ADDRESS) and plays what clients ask for, e.g. \
            `playerctl -p cloudplayerd open file:///music/a.mp3`. Runs until SIGTERM, SIGINT or \
            an MPRIS Quit call; then it releases its bus name and exits 0.
            """
    )

    @OptionGroup var outputOptions: OutputOptions

    @OptionGroup var configOptions: ConfigOptions

    @Option(help: ArgumentHelp("Run a further instance, named org.mpris.MediaPlayer2.cloudplayerd.instanceNAME.",
                               valueName: "name"))
    var instance: String?

    func validate() throws {
        if let instance, !BusService.isValidInstance(instance) {
            throw ValidationError("--instance takes letters, digits and underscores (at most 64).")
        }
    }

    func run() async throws {
        let configuration = try configOptions.load()
        let device = try await outputOptions.openDevice()
        let player = Player(loader: LoaderActor(configuration: configuration), output: OutputActor(device: device))
        let service: BusService
        do {
            service = try await BusService(player: player, instance: instance)
        } catch {
            complain("\(error)")
            await player.shutdown()
            try? await device.close()
            throw ExitCode(2)
        }
        say("cloudplayerd: serving \(service.name)")
        ServiceNotifier.ready(status: "serving \(service.name)")
        let watchdog = Task.detached { await ServiceNotifier.keepWatchdogFed() }

        let watcher = SignalWatcher()
        let signals = watcher.signals
        let quits = service.quitRequests
        // The first of: a signal, or a client's Quit.
        await withTaskGroup(of: Void.self) { group in
            group.addTask { for await _ in signals { return } }
            group.addTask { for await _ in quits { return } }
            await group.next()
            group.cancelAll()
        }
        withExtendedLifetime(watcher) {}
        ServiceNotifier.stopping()
        watchdog.cancel()
        await player.shutdown()
        await service.stop()
        try? await device.close()
    }
}

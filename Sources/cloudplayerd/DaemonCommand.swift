import ArgumentParser
import Daemon
import Foundation
import Library
import Loader
import Logging
import Manager1
import MPRIS
import Output
import Playback
import Scrobbling

struct DaemonCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "daemon",
        abstract: "Run in the background, controlled over MPRIS (media keys, playerctl, desktop widgets).",
        discussion: """
            Publishes org.mpris.MediaPlayer2.cloudplayerd on the session bus (from \
            DBUS_SESSION_BUS_ADDRESS) and plays what clients ask for, e.g. \
            `playerctl -p cloudplayerd open file:///music/a.mp3`. Runs until SIGTERM, SIGINT or \
            an MPRIS Quit call; then it releases its bus name and exits 0. When the session \
            bus goes away it stops too, with exit status 3, so that systemd starts it again.
            """
    )

    @OptionGroup var outputOptions: OutputOptions

    @OptionGroup var configOptions: ConfigOptions

    @Option(help: ArgumentHelp("Run a further instance, named org.mpris.MediaPlayer2.cloudplayerd.instanceNAME.",
                               valueName: "name"))
    var instance: String?

    func validate() throws {
        if let instance, !Manager1.isValidInstance(instance) {
            throw ValidationError("--instance takes letters, digits and underscores (at most 64).")
        }
    }

    func run() async throws {
        // First of all: a SIGTERM that arrives while starting (even right after READY=1) is
        // queued for the loop below, not lost in the moment the handlers are being set up.
        let watcher = SignalWatcher([SIGINT, SIGTERM, SIGHUP])
        let configuration = try configOptions.load()
        let device = try await outputOptions.openDevice(journal: true)
        let loader = LoaderActor(settings: configuration.loader, sources: configuration.sources)
        let library = LibraryActor()
        do {
            try await library.openDatabase()
        } catch {
            // Playing and MPRIS go on; library calls answer with this reason.
            complain("\(error)")
        }
        let player = Player(loader: loader, output: OutputActor(device: device), settings: configuration.playback)
        let scrobbler = ListenBrainzScrobbler(settings: configuration.scrobble, journal: ListenBrainzScrobbler.journal(instance: instance),
                                              version: Manager1.productVersion)
        let reloader = ConfigReloader(options: configOptions, loader: loader, player: player, scrobbler: scrobbler)
        let manager = Manager1Service(player: player, library: library, loader: loader, scrobbler: scrobbler) { await reloader.reload() }
        // A library made anew for a damaged one (now, or while serving) is filled by a scan.
        await library.whenRebuilt { await manager.rescanAll() }
        let service: BusPublication
        do {
            service = try await BusPublication(player: player, manager: manager, sources: configuration.sources, instance: instance)
        } catch {
            complain("\(error)")
            await player.shutdown()
            try? await device.close()
            throw ExitCode(2)
        }
        // After the bus is up, so MPRIS hears the restored queue and track like any change.
        let keeper = StateKeeper(player: player, instance: instance)
        await keeper.restore { await manager.intake.items(forTexts: $0) }
        await keeper.start()
        let progress = ProgressRecorder(player: player, library: library).start()
        defer { progress.cancel() }
        let scrobbling = scrobbler.start(following: player)
        defer { scrobbling.cancel() }
        try? await manager.keepPinned()
        say("cloudplayerd: serving \(service.name)")
        ServiceNotifier.ready(status: "serving \(service.name)")
        let watchdog = Task.detached { await ServiceNotifier.keepWatchdogFed() }

        let signals = watcher.signals
        let quits = service.quitRequests
        let losses = service.losses
        // The first of: a stopping signal, a client's Quit, or the bus gone. SIGHUP reloads the
        // config.
        let lost = await withTaskGroup(of: String?.self) { group in
            group.addTask {
                for await number in signals {
                    guard number == SIGHUP else { return nil }
                    ServiceNotifier.reloading()
                    if let problem = await reloader.reload() { complain("config not reloaded, keeping the last good one: \(problem)") }
                    ServiceNotifier.status("serving \(service.name)")
                }
                return nil
            }
            group.addTask {
                for await _ in quits { return nil }
                return nil
            }
            // Without its bus no media key, playerctl or cloudplayerctl reaches the daemon again.
            // Rather than play on unreachable it stops, saving its state, and exits 3:
            // systemd's Restart=on-failure (or the next D-Bus activation) starts a fresh one on
            // the new bus, which comes back paused where this one was. Reconnecting in place
            // would mean re-registering every object, name and match on a bus that is usually
            // gone for good (the session ended or its dbus-daemon was restarted).
            group.addTask {
                for await reason in losses { return reason }
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
        if let lost {
            // At error priority in the journal (`journalctl --user -u cloudplayerd -p err`).
            Logger(label: "cloudplayerd.daemon").error("lost the session bus connection (\(lost)); stopping with exit status 3 so that systemd starts the service again")
            ServiceNotifier.status("lost the session bus connection: \(lost)")
        }
        withExtendedLifetime(watcher) {}
        ServiceNotifier.stopping()
        watchdog.cancel()
        await keeper.stop()
        await scrobbler.shutdown()
        await player.shutdown()
        await service.stop()
        try? await device.close()
        if lost != nil { throw ExitCode(3) }
    }
}

import ArgumentParser
import Base
import Daemon
import Decoding
import FoundationEssentials
import Library
import Loader
import Logging
import Manager1
import MPD
import MPRIS
import Output
import Playback
import Scrobbling
import ServiceLifecycle

struct DaemonCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "daemon",
        abstract: "Run in the background, controlled over MPRIS (media keys, playerctl, desktop widgets).",
        discussion: """
            Publishes org.mpris.MediaPlayer2.cloudplayerd on the session bus (from \
            DBUS_SESSION_BUS_ADDRESS) and plays what clients ask for, e.g. \
            `playerctl -p cloudplayerd open file:///music/a.mp3`. Runs until SIGTERM, SIGINT or \
            an MPRIS Quit call; then it saves its state, releases its bus name and exits 0 \
            within a second. When the session bus goes away it stops too, with exit status 3, so \
            that systemd starts it again. SIGHUP reloads the config file.
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
        // First of all: a SIGTERM that arrives while starting is kept for when the group runs.
        let signals = await SignalService(trapping: [.sigterm, .sigint, .sighup])
        // Why a start failed is kept for cloudplayerctl, which started it by D-Bus activation
        // and hears only "exited with status 2".
        let startError = LastStartError(instance: instance)
        let configuration = try configOptions.load(failed: startError.record)
        let device = try await outputOptions.openDevice(journal: true, failed: startError.record)
        let loader = LoaderActor(settings: configuration.loader, sources: configuration.sources)
        let library = LibraryActor()
        do {
            try await library.openDatabase()
        } catch {
            // Playing and MPRIS go on; library calls answer with this reason.
            complain("\(error)")
        }
        let player = Player(loader: loader, decoder: DecoderActor(), output: OutputActor(device: device), settings: configuration.playback)
        let scrobbler = ListenBrainzScrobbler(settings: configuration.scrobble, journal: ListenBrainzScrobbler.journal(instance: instance),
                                              version: Manager1.productVersion, following: player)
        let reloader = ConfigReloader(options: configOptions, instance: instance, loader: loader, library: library, player: player, scrobbler: scrobbler)
        let manager = Manager1Service(player: player, library: library, loader: loader, scrobbler: scrobbler) { await reloader.reload() }
        // A library made anew for a damaged one (now, or while serving) is filled by a scan.
        await library.whenRebuilt { await manager.rescanAll() }
        let bus: BusPublication
        do {
            bus = try await BusPublication(player: player, manager: manager, sources: configuration.sources, instance: instance)
        } catch {
            complain("\(error)")
            startError.record("\(error)")
            try? await device.close()
            throw ExitCode(2)
        }
        startError.clear()
        let mpd = await MPDSetup.server(configuration.mpd, instance: instance, player: player, intake: manager.intake,
                                        library: MPDLibraryDatabase(library: library, loader: loader) { await manager.startScanning($0) })
        reloader.reloads(mpd)
        // Whoever made a part stops it: the group, in the reverse of this order. The loader goes
        // last (reports still under way are sent); the scrobbler and the progress recorder hear
        // the player's last events; the state is saved while the place is still the player's.
        let group = DaemonServices.group([
            loader, library, scrobbler, ProgressRecorder(player: player, library: library), player,
            bus, bus.mpris, manager, StateKeeper(player: player, instance: instance) { await manager.intake.items(forTexts: $0) },
            mpd, SystemdNotifier(status: "serving \(bus.name)"), signals,
        ])
        signals.connect(to: group) {
            ServiceNotifier.reloading()
            if let problem = await reloader.reload() { complain("config not reloaded, keeping the last good one: \(problem)") }
            ServiceNotifier.status("serving \(bus.name)")
        }
        say("cloudplayerd: serving \(bus.name)")
        var lost: BusLost?
        do {
            try await group.run()
        } catch let error as BusLost {
            lost = error
        } catch {
            complain("\(error)")
        }
        try? await device.close()
        if let lost {
            // Without its bus no media key, playerctl or cloudplayerctl reaches the daemon again.
            // Rather than play on unreachable it stopped, saving its state, and exits 3:
            // systemd's Restart=on-failure (or the next D-Bus activation) starts a fresh one on
            // the new bus, which comes back paused where this one was. At error priority in the
            // journal (`journalctl --user -u cloudplayerd -p err`).
            Logger(label: "cloudplayerd.daemon").error("\(lost); stopped with exit status 3 so that systemd starts the service again")
            ServiceNotifier.status("\(lost)")
            throw ExitCode(3)
        }
    }
}

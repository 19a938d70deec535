import Base
import Config
import Daemon
import FoundationEssentials
import Glibc
import Library
import Loader
import Logging
import MPD
import Playback
import Scrobbling

/// Re-reads the config file on SIGHUP (or a Manager1 Reload): a good one replaces the sources
/// and credentials, `[playback]` from the next track on, `[scrobble]`, and `[mpd]` (its addresses,
/// password and permissions; one whose password cannot be read leaves the server as it was); a
/// broken one is reported, and the last good one stays.
struct ConfigReloader: Sendable {
    let options: ConfigOptions
    let instance: String?
    let loader: LoaderActor
    let library: LibraryActor
    let player: Player
    let scrobbler: ListenBrainzScrobbler
    /// Made after the reloader (it needs the Manager1 service, which needs the reloader).
    private let mpd = Locked<MPDServer?>(nil)
    private let logger = Logger(label: "cloudplayerd.config")

    init(options: ConfigOptions, instance: String?, loader: LoaderActor, library: LibraryActor, player: Player, scrobbler: ListenBrainzScrobbler) {
        self.options = options
        self.instance = instance
        self.loader = loader
        self.library = library
        self.player = player
        self.scrobbler = scrobbler
    }

    /// The MPD server that reloads reach.
    func reloads(_ server: MPDServer) {
        mpd.withLock { $0 = server }
    }

    /// nil when reloaded; else the problem (one line: file, line, key).
    func reload() async -> String? {
        do {
            let configuration = try await Configuration.read(explicit: options.config)
            let before = await loader.sources
            await loader.reload(settings: configuration.loader, sources: configuration.sources)
            // A source whose settings changed (a corrected URL) is not shown with the old one's error.
            let changed = configuration.sources.all.filter { source in
                before.source(named: source.name).map { !source.isEqual(to: $0) } ?? false
            }
            try? await library.forgetScanProblems(of: changed.map(\.name))
            player.send(.configure(configuration.playback))
            await scrobbler.configure(configuration.scrobble)
            if let server = mpd.withLock({ $0 }) {
                do {
                    let settings = try await MPDSetup.settings(configuration.mpd, instance: instance)
                    MPDSetup.roomForClients(settings.limits)
                    server.reload(settings)
                } catch {
                    logger.error("MPD: the password could not be read (\(error)); [mpd] stays as it was")
                }
            }
            logger.notice("config reloaded", metadata: ["sources": "\(configuration.sources.all.count)"])
            return nil
        } catch {
            logger.error("config not reloaded; the last good one stays", metadata: ["reason": "\(error)"])
            return "\(error)"
        }
    }
}

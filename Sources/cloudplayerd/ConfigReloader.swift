import Config
import Daemon
import FoundationEssentials
import Glibc
import Loader
import Logging
import Playback
import Scrobbling

/// Re-reads the config file on SIGHUP (or a Manager1 Reload): a good one replaces the sources
/// and credentials, `[playback]` from the next track on, and `[scrobble]`; a broken one is reported, and the last good one stays.
struct ConfigReloader: Sendable {
    let options: ConfigOptions
    let loader: LoaderActor
    let player: Player
    let scrobbler: ListenBrainzScrobbler
    private let logger = Logger(label: "cloudplayerd.config")

    init(options: ConfigOptions, loader: LoaderActor, player: Player, scrobbler: ListenBrainzScrobbler) {
        self.options = options
        self.loader = loader
        self.player = player
        self.scrobbler = scrobbler
    }

    /// nil when reloaded; else the problem (one line: file, line, key).
    func reload() async -> String? {
        do {
            let configuration = try await Configuration.read(explicit: options.config)
            await loader.reload(settings: configuration.loader, sources: configuration.sources)
            player.send(.configure(configuration.playback))
            await scrobbler.configure(configuration.scrobble)
            logger.notice("config reloaded", metadata: ["sources": "\(configuration.sources.all.count)"])
            return nil
        } catch {
            logger.error("config not reloaded; the last good one stays", metadata: ["reason": "\(error)"])
            return "\(error)"
        }
    }
}

import Config
import Daemon
import Foundation
import Loader
import Logging
import Playback

/// Re-reads the config file on SIGHUP (or a Manager1 Reload): a good one replaces the sources
/// and credentials, and `[playback]` from the next track on; a broken one is reported, and the last good one stays.
struct ConfigReloader: Sendable {
    let options: ConfigOptions
    let loader: LoaderActor
    let player: Player
    private let logger = Logger(label: "cloudplayerd.config")

    init(options: ConfigOptions, loader: LoaderActor, player: Player) {
        self.options = options
        self.loader = loader
        self.player = player
    }

    /// nil when reloaded; else the problem (one line: file, line, key).
    func reload() async -> String? {
        do {
            let configuration = try Configuration.load(explicit: options.config)
            await loader.reload(settings: configuration.loader, sources: configuration.sources)
            player.send(.configure(configuration.playback))
            logger.notice("config reloaded", metadata: ["sources": "\(configuration.sources.all.count)"])
            return nil
        } catch {
            logger.error("config not reloaded; the last good one stays", metadata: ["reason": "\(error)"])
            return "\(error)"
        }
    }
}

import Config
import FoundationEssentials
import Logging
import MPD
import Playback

/// The MPD server as `[mpd]` asks for it: its password read (a file, a command, the keyring),
/// a further instance's default socket named after it. The server is made even when it serves
/// nothing — `listen = []`, or a password that cannot be read (said in the journal: the daemon
/// runs on without the server rather than serve it without its password) — so that a reload
/// (SIGHUP) can turn it on.
package enum MPDSetup {
    package static func server(_ configuration: MPDConfiguration, instance: String?, player: Player, intake: QueueIntake,
                               library: any MPDLibrary) async -> MPDServer {
        var settings = MPDSettings()
        do {
            settings = try await Self.settings(configuration, instance: instance)
        } catch {
            Logger(label: "cloudplayerd.mpd").error("MPD: the password could not be read (\(error)); not serving MPD")
        }
        return MPDServer(context: MPDContext(player: player, intake: intake, library: library, settings: settings))
    }

    /// The settings `configuration` stands for; throws what kept its password from being read.
    package static func settings(_ configuration: MPDConfiguration, instance: String?) async throws -> MPDSettings {
        var listen = configuration.listen
        if let instance {
            let runtime = ProcessInfo.processInfo.environment["XDG_RUNTIME_DIR"]
            let plain = MPDConfiguration.defaultListen(runtimeDirectory: runtime)
            if listen == plain { listen = MPDConfiguration.defaultListen(runtimeDirectory: runtime, instance: instance) }
        }
        var password: Secret?
        if let origin = configuration.password, !listen.isEmpty {
            password = try await origin.resolve()
        }
        return MPDSettings(listen: listen, password: password, defaultPermissions: configuration.defaultPermissions)
    }
}

import Config
import FoundationEssentials
import Logging
import MPD
import Playback

/// The MPD server as `[mpd]` asks for it: its password read (a file, a command, the keyring),
/// a further instance's default socket named after it; nil when `listen = []`, or when the
/// password cannot be read (said in the journal; the daemon runs on without the server rather
/// than serve it without its password).
package enum MPDSetup {
    package static func server(_ configuration: MPDConfiguration, instance: String?, player: Player, intake: QueueIntake,
                               library: any MPDLibrary) async -> MPDServer? {
        let logger = Logger(label: "cloudplayerd.mpd")
        var listen = configuration.listen
        if let instance {
            let runtime = ProcessInfo.processInfo.environment["XDG_RUNTIME_DIR"]
            let plain = MPDConfiguration.defaultListen(runtimeDirectory: runtime)
            if listen == plain { listen = MPDConfiguration.defaultListen(runtimeDirectory: runtime, instance: instance) }
        }
        guard !listen.isEmpty else { return nil }
        var password: Secret?
        if let origin = configuration.password {
            do {
                password = try await origin.resolve()
            } catch {
                logger.error("MPD: the password could not be read (\(error)); not serving MPD")
                return nil
            }
        }
        let settings = MPDSettings(listen: listen, password: password, defaultPermissions: configuration.defaultPermissions)
        return MPDServer(context: MPDContext(player: player, intake: intake, library: library, settings: settings))
    }
}

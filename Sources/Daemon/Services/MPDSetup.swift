import Config
import FoundationEssentials
import Glibc
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
        roomForClients(settings.limits)
        return MPDServer(context: MPDContext(player: player, intake: intake, library: library, settings: settings))
    }

    /// Descriptors enough for `max_connections` clients and the rest of the daemon (512): the
    /// soft limit raised towards the hard one if it is lower (a shell's 1,024 and a large
    /// `max_connections`); said once if even the hard limit is too low.
    package static func roomForClients(_ limits: MPDLimits) {
        let needed = rlim_t(limits.maxConnections + 512)
        var limit = rlimit()
        guard getrlimit(RLIMIT_NOFILE_VALUE, &limit) == 0, limit.rlim_cur < needed else { return }
        limit.rlim_cur = min(needed, limit.rlim_max)
        _ = setrlimit(RLIMIT_NOFILE_VALUE, &limit)
        if limit.rlim_cur < needed {
            Logger(label: "cloudplayerd.mpd").warning("MPD: only \(limit.rlim_cur) open files allowed (ulimit -n); max_connections = \(limits.maxConnections) wants \(needed)")
        }
    }

    /// `RLIMIT_NOFILE`, which Glibc shows Swift as an enum of its own type.
    private static let RLIMIT_NOFILE_VALUE = Int32(RLIMIT_NOFILE.rawValue)

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
        return MPDSettings(listen: listen, password: password, defaultPermissions: configuration.defaultPermissions, limits: configuration.limits)
    }
}

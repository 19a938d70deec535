import Config
import FoundationEssentials
import MPD

/// `[mpd]` checked: where the MPD server listens, and who may do what.
package struct MPDConfiguration: Sendable {
    /// Where to listen; empty: the server is off.
    package var listen: [MPDAddress]
    package var password: Secret.Origin?
    package var defaultPermissions: MPDPermission

    /// The defaults: TCP on 127.0.0.1:6600 (as Mopidy-MPD) and a unix socket in the runtime
    /// directory (`mpd-INSTANCE.socket` for a further instance).
    package static func defaultListen(runtimeDirectory: String?, instance: String? = nil) -> [MPDAddress] {
        var addresses = [MPDAddress.tcp(host: "127.0.0.1", port: 6600)]
        if let runtimeDirectory, !runtimeDirectory.isEmpty {
            let name = instance.map { "mpd-\($0).socket" } ?? "mpd.socket"
            addresses.append(.unix(path: runtimeDirectory + "/cloudplayerd/" + name))
        }
        return addresses
    }

    /// Checks `[mpd]`: each address readable; one other machines could reach only with a
    /// password (anyone on the network could otherwise control the player and read the library).
    package static func check(_ config: MPDConfig, defaultListen: [MPDAddress]) throws(ConfigError) -> MPDConfiguration {
        var listen = defaultListen
        if let given = config.listen {
            listen = []
            for (text, line) in given {
                guard let address = MPDAddress(text) else {
                    throw ConfigError(line: line, key: "mpd.listen", "expected \"host:port\", \"[v6 address]:port\" or a socket's path starting with /, found \"\(text.prefix(80))\"")
                }
                if !address.isLocal, config.password == nil {
                    throw ConfigError(line: line, key: "mpd.listen",
                                      "\(address) can be reached from other machines: set [mpd] password (or password_file, ...) to listen there")
                }
                listen.append(address)
            }
        }
        var permissions = MPDPermission.none
        for (name, line) in config.defaultPermissions ?? [] {
            guard let permission = MPDPermission.names[name] else {
                throw ConfigError(line: line, key: "mpd.default_permissions", "expected \"read\", \"add\", \"control\" or \"admin\", found \"\(name.prefix(40))\"")
            }
            permissions.formUnion(permission)
        }
        return MPDConfiguration(listen: listen, password: config.password, defaultPermissions: permissions)
    }
}

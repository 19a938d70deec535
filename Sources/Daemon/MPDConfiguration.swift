import Config
import FoundationEssentials
import MPD

/// `[mpd]` checked: where the MPD server listens, and who may do what.
package struct MPDConfiguration: Sendable {
    /// Where to listen; empty: the server is off.
    package var listen: [MPDAddress]
    package var password: Secret.Origin?
    package var defaultPermissions: MPDPermission
    package var limits: MPDLimits

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
                if address.isPlainlyReachable, config.password == nil {
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
        return MPDConfiguration(listen: listen, password: config.password, defaultPermissions: permissions, limits: try limits(config))
    }

    /// `[mpd]`'s limits, within what makes sense: at least one connection, a timeout of a second
    /// to a day, lists and buffers of 4 KiB to 1 GiB.
    private static func limits(_ config: MPDConfig) throws(ConfigError) -> MPDLimits {
        var limits = MPDLimits()
        if let (count, line) = config.maxConnections {
            guard count >= 1, count <= 100_000, count == count.rounded() else {
                throw ConfigError(line: line, key: "mpd.max_connections", "expected a whole number from 1 to 100000")
            }
            limits.maxConnections = Int(count)
        }
        if let seconds = config.connectionTimeout {
            guard seconds >= 1, seconds <= 86400 else {
                throw ConfigError(line: nil, key: "mpd.connection_timeout", "expected a duration from \"1s\" to \"24h\"")
            }
            limits.connectionTimeout = .milliseconds(Int64(seconds * 1000))
        }
        for (size, key) in [(config.maxCommandListSize, "max_command_list_size"), (config.maxOutputBufferSize, "max_output_buffer_size")] {
            guard let (bytes, line) = size else { continue }
            guard bytes >= 4096, bytes <= 1 << 30 else { throw ConfigError(line: line, key: "mpd.\(key)", "expected a size from \"4 KiB\" to \"1 GiB\"") }
            if key == "max_command_list_size" { limits.maxCommandListSize = Int(bytes) } else { limits.maxOutputBufferSize = Int(bytes) }
        }
        return limits
    }
}

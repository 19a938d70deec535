/// `[mpd]`: the MPD protocol server's addresses and password, read as far as their shape goes
/// (the daemon checks the addresses themselves: what is an address is the server's to say).
package struct MPDConfig: Sendable, Equatable {
    /// `listen`: `host:port`, `[v6]:port` or a unix socket's path, each with its line; nil when
    /// not given (the defaults), empty to turn the server off.
    package var listen: [(value: String, line: Int)]?
    /// `password` (or `_file`, `_command`, `_keyring`).
    package var password: Secret.Origin?
    /// `default_permissions`: what a client may do before it sends the password.
    package var defaultPermissions: [(value: String, line: Int)]?

    package init() {}

    package static func == (lhs: MPDConfig, rhs: MPDConfig) -> Bool {
        lhs.listen?.map(\.value) == rhs.listen?.map(\.value) && lhs.password == rhs.password
            && lhs.defaultPermissions?.map(\.value) == rhs.defaultPermissions?.map(\.value)
    }
}

extension ConfigFile {
    /// Reads `[mpd]`, if the document has it.
    static func mpd(_ document: TOMLTable, reader: ConfigReader) throws(ConfigError) -> MPDConfig {
        var config = MPDConfig()
        guard let mpd = try reader.table(document, "mpd") else { return config }
        try reader.allow(mpd, keys: Secret.Origin.keys(for: "password").union(["listen", "default_permissions"]), in: "mpd")
        config.listen = try strings(mpd, "listen", reader: reader)
        config.defaultPermissions = try strings(mpd, "default_permissions", reader: reader)
        config.password = try reader.secret(mpd, "password", in: "mpd")
        return config
    }

    /// An array of strings.
    private static func strings(_ table: TOMLTable, _ key: String, reader: ConfigReader) throws(ConfigError) -> [(value: String, line: Int)]? {
        switch table[key] {
        case nil:
            return nil
        case .array(let items, _)?:
            var strings: [(value: String, line: Int)] = []
            for item in items {
                guard case .string(let text, let itemLine) = item else {
                    throw ConfigError(line: item.line, key: "mpd.\(key)", "expected an array of strings, found \(item.kind) in it")
                }
                strings.append((text, itemLine))
            }
            return strings
        case let other?:
            throw ConfigError(line: other.line, key: "mpd.\(key)", "expected an array of strings, found \(other.kind)")
        }
    }
}

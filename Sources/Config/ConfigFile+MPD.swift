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
    /// MPD's limits on each client: `max_connections`, `connection_timeout` (seconds),
    /// `max_command_list_size` and `max_output_buffer_size` (bytes); nil where not given.
    package var maxConnections: (value: Double, line: Int)?
    package var connectionTimeout: Double?
    package var maxCommandListSize: (value: Int64, line: Int)?
    package var maxOutputBufferSize: (value: Int64, line: Int)?

    package init() {}

    package static func == (lhs: MPDConfig, rhs: MPDConfig) -> Bool {
        lhs.listen?.map(\.value) == rhs.listen?.map(\.value) && lhs.password == rhs.password
            && lhs.defaultPermissions?.map(\.value) == rhs.defaultPermissions?.map(\.value)
            && lhs.maxConnections?.value == rhs.maxConnections?.value && lhs.connectionTimeout == rhs.connectionTimeout
            && lhs.maxCommandListSize?.value == rhs.maxCommandListSize?.value && lhs.maxOutputBufferSize?.value == rhs.maxOutputBufferSize?.value
    }
}

extension ConfigFile {
    /// Reads `[mpd]`, if the document has it.
    static func mpd(_ document: TOMLTable, reader: ConfigReader) throws(ConfigError) -> MPDConfig {
        var config = MPDConfig()
        guard let mpd = try reader.table(document, "mpd") else { return config }
        try reader.allow(mpd, keys: ConfigKeys.mpd, in: "mpd")
        config.listen = try strings(mpd, "listen", reader: reader)
        config.defaultPermissions = try strings(mpd, "default_permissions", reader: reader)
        config.password = try reader.secret(mpd, "password", in: "mpd")
        config.maxConnections = try reader.number(mpd, "max_connections", in: "mpd")
        config.connectionTimeout = try reader.duration(mpd, "connection_timeout", in: "mpd")
        config.maxCommandListSize = try size(mpd, "max_command_list_size", reader: reader)
        config.maxOutputBufferSize = try size(mpd, "max_output_buffer_size", reader: reader)
        return config
    }

    /// A size written with its unit ("2 MiB"). A bare number is refused: mpd.conf counts these
    /// in KiB, and a number copied from it would mean a thousandth of what it meant there.
    private static func size(_ table: TOMLTable, _ key: String, reader: ConfigReader) throws(ConfigError) -> (value: Int64, line: Int)? {
        if case .integer(let value, let line)? = table[key] {
            throw ConfigError(line: line, key: "mpd.\(key)", "write the unit: \"\(value) KiB\" is what mpd.conf's \(value) means")
        }
        guard let text = try reader.string(table, key, in: "mpd") else { return nil }
        guard let bytes = ByteCount.parse(text.value) else {
            throw ConfigError(line: text.line, key: "mpd.\(key)", "expected a size such as \"2 MiB\", found \"\(text.value.prefix(40))\"")
        }
        return (bytes, text.line)
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

import Base
import FoundationEssentials

/// One `[[source]]` table as its source type reads it: typed values with their lines, unknown keys
/// refused, every error naming the source (`source 'dav'.url`) — never quoting a secret.
package struct ConfigSection {
    package let table: TOMLTable
    /// The source's name.
    package let name: String
    /// The line of the table's header.
    package let line: Int
    private let reader: ConfigReader
    /// For a table inside the source's (`[[source.station]]`): its key and a dot.
    private let prefix: String

    package init(table: TOMLTable, name: String, line: Int, reader: ConfigReader, prefix: String = "") {
        self.table = table
        self.name = name
        self.line = line
        self.reader = reader
        self.prefix = prefix
    }

    /// A table inside this one (`[[source.station]]`), read the same way: its errors name it
    /// `source 'NAME'.KEY.…`.
    package func nested(_ table: TOMLTable, line: Int, key: String) -> ConfigSection {
        ConfigSection(table: table, name: name, line: line, reader: reader, prefix: "\(prefix)\(key).")
    }

    /// What the reader's own errors name a key within: `source`, or the nested table.
    private var scope: String {
        prefix.isEmpty ? "source '\(name)'" : "source '\(name)'.\(prefix.dropLast())"
    }

    /// How errors name a key of it.
    package func key(_ key: String) -> String {
        "source '\(name)'.\(prefix)\(key)"
    }

    package func error(_ key: String, line: Int? = nil, _ problem: String) -> ConfigError {
        ConfigError(line: line ?? self.line, key: self.key(key), problem)
    }

    /// Refuses keys other than these (and `name`, `type` and the proxy keys): a typo must not silently do nothing.
    package func allow(_ keys: Set<String>) throws(ConfigError) {
        // Every source may have its own proxy, speed and skip_silence (read with the file, for whatever the type is).
        try reader.allow(table, keys: keys.union(prefix.isEmpty ? ConfigKeys.source : ["name"]), in: scope)
    }

    package func string(_ key: String) throws(ConfigError) -> (value: String, line: Int)? {
        try reader.string(table, key, in: scope)
    }

    package func boolean(_ key: String) throws(ConfigError) -> (value: Bool, line: Int)? {
        try reader.boolean(table, key, in: "source '\(name)'")
    }

    /// A whole number in `range`; `what` names the unit for messages (`expected a port, 1 to 65535`).
    package func integer(_ key: String, in range: ClosedRange<Int>, _ what: String = "a number") throws(ConfigError) -> Int? {
        switch table[key] {
        case nil: return nil
        case .integer(let value, let line)?:
            guard range.contains(Int(value)) else { throw error(key, line: line, "expected \(what), \(range.lowerBound) to \(range.upperBound)") }
            return Int(value)
        case let other?: throw error(key, line: other.line, "expected \(what), found \(other.kind)")
        }
    }

    /// A key that must be there; `what` says what it is for.
    package func required(_ key: String, _ what: String) throws(ConfigError) -> (value: String, line: Int) {
        guard let value = try string(key) else { throw error(key, "missing (\(what))") }
        return value
    }

    /// A path: `~/x` is in the home folder; a relative path is beside the config file.
    package func path(_ key: String) throws(ConfigError) -> URL? {
        try string(key).map { reader.path($0.value) }
    }

    /// An http(s) URL with a host and without credentials (they go in their own keys).
    package func httpURL(_ key: String) throws(ConfigError) -> URL? {
        guard let text = try string(key) else { return nil }
        guard let url = URL(string: text.value), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host != nil else {
            throw error(key, line: text.line, "expected an http:// or https:// URL")
        }
        guard url.user == nil, url.password == nil else {
            throw error(key, line: text.line, "put credentials in username/password, not in the URL")
        }
        return url
    }

    /// `KEY`, `KEY_file` or `KEY_command`: at most one of them.
    package func secret(_ key: String) throws(ConfigError) -> Secret.Origin? {
        try reader.secret(table, key, in: "source '\(name)'")
    }

    /// A table of HTTP header fields (`{ Authorization = "Bearer …" }`); the values are secrets.
    package func headers(_ key: String) throws(ConfigError) -> [(name: String, value: Secret)] {
        var headers: [(name: String, value: Secret)] = []
        switch table[key] {
        case nil: break
        case .table(let fields, _)?:
            for (field, value) in fields.entries {
                guard case .string(let text, _) = value else {
                    throw error("\(key).\(field)", line: value.line, "expected a string, found \(value.kind)")
                }
                guard !field.isEmpty, field.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }),
                      !text.contains(where: { $0 == "\r" || $0 == "\n" }) else {
                    throw error("\(key).\(field)", line: value.line, "is not a valid HTTP header")
                }
                headers.append((field, Secret(text)))
            }
        case let other?:
            throw error(key, line: other.line, "expected a table such as { Authorization = \"Bearer …\" }, found \(other.kind)")
        }
        return headers
    }
}

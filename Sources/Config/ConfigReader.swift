import Base
import FoundationEssentials

/// Reads typed values out of a parsed config document, turning every mismatch into an error that
/// names the line and the key. Unknown keys are errors too: a typo must not silently do nothing.
package struct ConfigReader {
    /// The config file's folder: relative paths in it are taken from there.
    package let directory: URL
    /// Where `*_keyring` secrets are looked up (nil: nowhere, and using one is an error).
    package let keyring: (any SecretKeyring)?

    package init(directory: URL, keyring: (any SecretKeyring)? = nil) {
        self.directory = directory
        self.keyring = keyring
    }

    package func allow(_ table: TOMLTable, keys: Set<String>, in section: String?) throws(ConfigError) {
        for (key, value) in table.entries where !keys.contains(key) {
            if let meant = NearestWord.suggestion(for: key, among: keys) {
                throw ConfigError(line: value.line, key: qualified(key, section), "unknown key; did you mean \(meant)?")
            }
            throw ConfigError(line: value.line, key: qualified(key, section),
                              "unknown key (known here: \(keys.sorted().joined(separator: ", ")))")
        }
    }

    package func table(_ table: TOMLTable, _ key: String) throws(ConfigError) -> TOMLTable? {
        switch table[key] {
        case nil: return nil
        case .table(let child, _)?: return child
        case let other?: throw ConfigError(line: other.line, key: key, "expected a table, found \(other.kind)")
        }
    }

    /// `[[key]]` tables, each with the line of its header.
    package func tables(_ table: TOMLTable, _ key: String) throws(ConfigError) -> [(table: TOMLTable, line: Int)] {
        switch table[key] {
        case nil: return []
        case .array(let items, _)?:
            var tables: [(table: TOMLTable, line: Int)] = []
            for item in items {
                guard case .table(let child, let line) = item else {
                    throw ConfigError(line: item.line, key: key, "expected [[\(key)]] tables, found \(item.kind)")
                }
                tables.append((child, line))
            }
            return tables
        case let other?: throw ConfigError(line: other.line, key: key, "expected [[\(key)]] tables, found \(other.kind)")
        }
    }

    package func string(_ table: TOMLTable, _ key: String, in section: String) throws(ConfigError) -> (value: String, line: Int)? {
        switch table[key] {
        case nil: return nil
        case .string(let text, let line)?: return (text, line)
        case let other?: throw ConfigError(line: other.line, key: qualified(key, section), "expected a string, found \(other.kind)")
        }
    }

    /// A duration written as text ("2 min", "30s", "1h30m"), in seconds.
    package func duration(_ table: TOMLTable, _ key: String, in section: String) throws(ConfigError) -> Double? {
        guard let text = try string(table, key, in: section) else { return nil }
        guard let seconds = DurationText.seconds(text.value) else {
            throw ConfigError(line: text.line, key: qualified(key, section),
                              "expected a duration such as \"30s\", \"10m\" or \"1h30m\", found \"\(text.value)\"")
        }
        return seconds
    }

    /// A bit rate in bits per second, written as a number or as text with a unit ("128k",
    /// "2.5M", "320 kbit/s"): what an HLS master playlist's `BANDWIDTH` is compared with.
    package func bitRate(_ table: TOMLTable, _ key: String, in section: String) throws(ConfigError) -> Int? {
        if case .integer(let value, let line)? = table[key] {
            guard value > 0 else { throw ConfigError(line: line, key: qualified(key, section), "must be more than 0 bits per second") }
            return Int(value)
        }
        guard let text = try string(table, key, in: section) else { return nil }
        var digits = text.value.lowercased().filter { $0 != " " }
        for suffix in ["bit/s", "bps", "b/s"] where digits.hasSuffix(suffix) { digits.removeLast(suffix.count) }
        let scale: Double = digits.hasSuffix("k") ? 1000 : digits.hasSuffix("m") ? 1_000_000 : 1
        if scale > 1 { digits.removeLast() }
        guard let number = Double(digits), number > 0, number * scale < 1e12 else {
            throw ConfigError(line: text.line, key: qualified(key, section), "expected a bit rate such as \"128k\" or \"2M\", found \"\(text.value)\"")
        }
        return Int(number * scale)
    }

    package func number(_ table: TOMLTable, _ key: String, in section: String) throws(ConfigError) -> (value: Double, line: Int)? {
        switch table[key] {
        case nil: return nil
        case .integer(let value, let line)?: return (Double(value), line)
        case .float(let value, let line)?: return (value, line)
        case let other?: throw ConfigError(line: other.line, key: qualified(key, section), "expected a number, found \(other.kind)")
        }
    }

    package func boolean(_ table: TOMLTable, _ key: String, in section: String) throws(ConfigError) -> (value: Bool, line: Int)? {
        switch table[key] {
        case nil: return nil
        case .boolean(let value, let line)?: return (value, line)
        case let other?: throw ConfigError(line: other.line, key: qualified(key, section), "expected true or false, found \(other.kind)")
        }
    }

    /// `KEY`, `KEY_file`, `KEY_command` or `KEY_keyring`: at most one of them. Each but the
    /// inline one is named in messages by its setting ("password_command of source 'dav2'").
    package func secret(_ table: TOMLTable, _ key: String, in section: String) throws(ConfigError) -> Secret.Origin? {
        let place = section.hasPrefix("source") ? section : "[\(section)]"
        let inline = try string(table, key, in: section).map { (Secret.Origin.inline(Secret($0.value)), $0.line) }
        let file = try string(table, key + "_file", in: section).map {
            (Secret.Origin.file(path($0.value).path, setting: "\(key)_file of \(place)"), $0.line)
        }
        let command = try string(table, key + "_command", in: section).map {
            (Secret.Origin.command($0.value, setting: "\(key)_command of \(place)"), $0.line)
        }
        let keyring = try keyringQuery(table, key + "_keyring", in: section, place: place)
        let given = [inline, file, command, keyring].compactMap { $0 }
        guard given.count <= 1 else {
            throw ConfigError(line: given[1].1, key: qualified(key, section), "give only one of \(key), \(key)_file, \(key)_command, \(key)_keyring")
        }
        return given.first?.0
    }

    /// `KEY_keyring = { service = "nextcloud", account = "anna" }`: the attributes of a keyring
    /// item, as `secret-tool lookup` takes them — any names, string values, at least one.
    private func keyringQuery(_ table: TOMLTable, _ key: String, in section: String, place: String) throws(ConfigError) -> (Secret.Origin, Int)? {
        switch table[key] {
        case nil: return nil
        case .table(let fields, let line)?:
            var attributes: [String: String] = [:]
            for (name, value) in fields.entries {
                guard case .string(let text, _) = value else {
                    throw ConfigError(line: value.line, key: qualified("\(key).\(name)", section), "expected a string, found \(value.kind)")
                }
                attributes[name] = text
            }
            guard !attributes.isEmpty else {
                throw ConfigError(line: line, key: qualified(key, section), "name the keyring item, e.g. { service = \"nextcloud\", account = \"anna\" }")
            }
            return (.keyring(KeyringQuery(attributes: attributes, setting: "\(key) of \(place)", keyring: keyring)), line)
        case let other?:
            throw ConfigError(line: other.line, key: qualified(key, section),
                              "expected a table such as { service = \"nextcloud\", account = \"anna\" }, found \(other.kind)")
        }
    }

    /// `~/x` is in the home folder; a relative path is beside the config file.
    package func path(_ text: String) -> URL {
        if text.hasPrefix("~/") {
            return URL(fileURLWithPath: XDGDirectories.home).appendingPathComponent(String(text.dropFirst(2)))
        }
        if text.hasPrefix("/") { return URL(fileURLWithPath: text) }
        return directory.appendingPathComponent(text)
    }

    package func qualified(_ key: String, _ section: String?) -> String {
        section.map { "\($0).\(key)" } ?? key
    }
}

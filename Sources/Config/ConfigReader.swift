import Foundation

/// Reads typed values out of a parsed config document, turning every mismatch into an error that
/// names the line and the key. Unknown keys are errors too: a typo must not silently do nothing.
package struct ConfigReader {
    let directory: URL

    func allow(_ table: TOMLTable, keys: Set<String>, in section: String?) throws(ConfigError) {
        for (key, value) in table.entries where !keys.contains(key) {
            throw ConfigError(line: value.line, key: qualified(key, section),
                              "unknown key (known here: \(keys.sorted().joined(separator: ", ")))")
        }
    }

    func table(_ table: TOMLTable, _ key: String) throws(ConfigError) -> TOMLTable? {
        switch table[key] {
        case nil: return nil
        case .table(let child, _)?: return child
        case let other?: throw ConfigError(line: other.line, key: key, "expected a table, found \(other.kind)")
        }
    }

    /// `[[key]]` tables, each with the line of its header.
    func tables(_ table: TOMLTable, _ key: String) throws(ConfigError) -> [(table: TOMLTable, line: Int)] {
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

    func string(_ table: TOMLTable, _ key: String, in section: String) throws(ConfigError) -> (value: String, line: Int)? {
        switch table[key] {
        case nil: return nil
        case .string(let text, let line)?: return (text, line)
        case let other?: throw ConfigError(line: other.line, key: qualified(key, section), "expected a string, found \(other.kind)")
        }
    }

    func number(_ table: TOMLTable, _ key: String, in section: String) throws(ConfigError) -> (value: Double, line: Int)? {
        switch table[key] {
        case nil: return nil
        case .integer(let value, let line)?: return (Double(value), line)
        case .float(let value, let line)?: return (value, line)
        case let other?: throw ConfigError(line: other.line, key: qualified(key, section), "expected a number, found \(other.kind)")
        }
    }

    /// `~/x` is in the home folder; a relative path is beside the config file.
    func path(_ text: String) -> URL {
        if text.hasPrefix("~/") {
            let home = ProcessInfo.processInfo.environment["HOME"] ?? NSHomeDirectory()
            return URL(fileURLWithPath: home).appendingPathComponent(String(text.dropFirst(2)))
        }
        if text.hasPrefix("/") { return URL(fileURLWithPath: text) }
        return directory.appendingPathComponent(text)
    }

    func source(_ entry: (table: TOMLTable, line: Int)) throws(ConfigError) -> SourceConfiguration {
        let table = entry.table
        let section = "source"
        try allow(table, keys: ["name", "type", "url", "path", "username", "password", "password_file", "password_command",
                                "token", "token_file", "token_command", "headers", "tls_ca_file"], in: section)
        guard let name = try string(table, "name", in: section), !name.value.isEmpty else {
            throw ConfigError(line: entry.line, key: "source.name", "every [[source]] needs a name")
        }
        let where_ = "source '\(name.value)'"
        guard let kindText = try string(table, "type", in: section) else {
            throw ConfigError(line: entry.line, key: "\(where_).type", "missing (webdav, http, feed or local)")
        }
        guard let kind = SourceConfiguration.Kind(rawValue: kindText.value) else {
            throw ConfigError(line: kindText.line, key: "\(where_).type", "'\(kindText.value)' is not a source type (webdav, http, feed or local)")
        }
        if kind == .local {
            try allow(table, keys: ["name", "type", "path"], in: section)
            guard let folder = try string(table, "path", in: section) else {
                throw ConfigError(line: entry.line, key: "\(where_).path", "missing (the folder to scan)")
            }
            return SourceConfiguration(name: name.value, kind: kind, url: path(folder.value))
        }
        if let stray = table["path"] {
            throw ConfigError(line: stray.line, key: "\(where_).path", "only a local source has a path; this one has a url")
        }
        guard let urlText = try string(table, "url", in: section) else {
            throw ConfigError(line: entry.line, key: "\(where_).url", "missing")
        }
        guard let url = URL(string: urlText.value), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host != nil else {
            throw ConfigError(line: urlText.line, key: "\(where_).url", "expected an http:// or https:// URL")
        }
        guard url.user == nil, url.password == nil else {
            throw ConfigError(line: urlText.line, key: "\(where_).url", "put credentials in username/password, not in the URL")
        }
        let password = try secret(table, "password", in: where_)
        let token = try secret(table, "token", in: where_)
        let username = try string(table, "username", in: section)?.value
        if password != nil && username == nil {
            throw ConfigError(line: entry.line, key: "\(where_).username", "a password needs a username")
        }
        var headers: [(name: String, value: Secret)] = []
        switch table["headers"] {
        case nil: break
        case .table(let fields, _)?:
            for (field, value) in fields.entries {
                guard case .string(let text, _) = value else {
                    throw ConfigError(line: value.line, key: "\(where_).headers.\(field)", "expected a string, found \(value.kind)")
                }
                guard !field.isEmpty, field.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }),
                      !text.contains(where: { $0 == "\r" || $0 == "\n" }) else {
                    throw ConfigError(line: value.line, key: "\(where_).headers.\(field)", "is not a valid HTTP header")
                }
                headers.append((field, Secret(text)))
            }
        case let other?:
            throw ConfigError(line: other.line, key: "\(where_).headers", "expected a table such as { Authorization = \"Bearer …\" }, found \(other.kind)")
        }
        let caFile = try string(table, "tls_ca_file", in: section).map { path($0.value).path }
        return SourceConfiguration(name: name.value, kind: kind, url: url, username: username, password: password,
                                   token: token, headers: headers, tlsCAFile: caFile)
    }

    /// `KEY`, `KEY_file` or `KEY_command`: at most one of them.
    private func secret(_ table: TOMLTable, _ key: String, in section: String) throws(ConfigError) -> Secret.Origin? {
        let inline = try string(table, key, in: "source").map { (Secret.Origin.inline(Secret($0.value)), $0.line) }
        let file = try string(table, key + "_file", in: "source").map { (Secret.Origin.file(path($0.value).path), $0.line) }
        let command = try string(table, key + "_command", in: "source").map { (Secret.Origin.command($0.value), $0.line) }
        let given = [inline, file, command].compactMap { $0 }
        guard given.count <= 1 else {
            throw ConfigError(line: given[1].1, key: "\(section).\(key)", "give only one of \(key), \(key)_file, \(key)_command")
        }
        return given.first?.0
    }

    private func qualified(_ key: String, _ section: String?) -> String {
        section.map { "\($0).\(key)" } ?? key
    }
}

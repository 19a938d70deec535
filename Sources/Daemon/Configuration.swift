import Base
import Config
import Foundation
import Loader
import SourceTypes

/// What `config.toml` says, checked: the cache and the network's patience (`[cache]`,
/// `[network]`), and the sources — each `[[source]]` table read by the source type it names.
package struct Configuration: Sendable {
    package var loader: LoaderSettings
    package var sources: SourceSet

    package init(loader: LoaderSettings = LoaderSettings(), sources: [any SourceType] = []) {
        self.loader = loader
        self.sources = SourceSet(sources)
    }
}

extension Configuration {
    /// The config file to read: `explicit` (`--config`), else `$CLOUDPLAYERD_CONFIG`, else
    /// `$XDG_CONFIG_HOME/cloudplayerd/config.toml`; with `required` false when neither was named.
    package static func location(explicit: String?) -> (path: String, required: Bool) {
        if let explicit { return (explicit, true) }
        if let named = ProcessInfo.processInfo.environment["CLOUDPLAYERD_CONFIG"], !named.isEmpty { return (named, true) }
        return (XDGDirectories.config.appendingPathComponent("config.toml").path, false)
    }

    /// Reads and checks the config file; a default configuration if it is absent and optional.
    package static func load(explicit: String?) throws(ConfigError) -> Configuration {
        let (path, required) = location(explicit: explicit)
        guard let data = FileManager.default.contents(atPath: path) else {
            if required || FileManager.default.fileExists(atPath: path) {
                throw ConfigError(file: path, line: nil, "cannot read the config file")
            }
            return Configuration()
        }
        do {
            return try parse(String(decoding: data, as: UTF8.self), relativeTo: URL(fileURLWithPath: path).deletingLastPathComponent())
        } catch var error {
            error.file = path
            throw error
        }
    }

    /// Checks a config document. Relative paths in it are taken from `directory`; `~` is home.
    /// `types`: the source types a `[[source]]` may name.
    package static func parse(_ text: String, relativeTo directory: URL,
                              types: [any SourceType.Type] = SourceTypes.all) throws(ConfigError) -> Configuration {
        let document = try TOMLParser.parse(text)
        let reader = ConfigReader(directory: directory)
        try reader.allow(document, keys: ["cache", "network", "source"], in: nil)
        var settings = LoaderSettings()
        if let cache = try reader.table(document, "cache") {
            try reader.allow(cache, keys: ["max_size", "dir"], in: "cache")
            if let size = try reader.string(cache, "max_size", in: "cache") {
                guard let bytes = ByteCount.parse(size.value) else {
                    throw ConfigError(line: size.line, key: "cache.max_size", "expected a size such as \"2 GiB\", found \"\(size.value)\"")
                }
                settings.cacheLimit = bytes
            }
            if let dir = try reader.string(cache, "dir", in: "cache") {
                settings.cacheDirectory = reader.path(dir.value)
            }
        }
        if let network = try reader.table(document, "network") {
            try reader.allow(network, keys: ["read_timeout", "retries"], in: "network")
            if let timeout = try reader.number(network, "read_timeout", in: "network") {
                guard timeout.value > 0 else { throw ConfigError(line: timeout.line, key: "network.read_timeout", "must be more than 0 seconds") }
                settings.readTimeout = timeout.value
            }
            if let retries = try reader.number(network, "retries", in: "network") {
                guard retries.value >= 0, retries.value <= 100 else { throw ConfigError(line: retries.line, key: "network.retries", "must be between 0 and 100") }
                settings.retries = Int(retries.value)
            }
        }
        var sources: [any SourceType] = []
        for (table, line) in try reader.tables(document, "source") {
            let source = try Self.source(table, line: line, reader: reader, types: types)
            if sources.contains(where: { $0.name == source.name }) {
                throw ConfigError(line: line, key: "source.name", "'\(source.name)' is used by two sources")
            }
            sources.append(source)
        }
        return Configuration(loader: settings, sources: sources)
    }

    /// One `[[source]]`: its name and type read here, the rest by the type.
    private static func source(_ table: TOMLTable, line: Int, reader: ConfigReader,
                               types: [any SourceType.Type]) throws(ConfigError) -> any SourceType {
        guard let name = try reader.string(table, "name", in: "source"), !name.value.isEmpty else {
            throw ConfigError(line: line, key: "source.name", "every [[source]] needs a name")
        }
        let names = types.map { $0.typeName }.joined(separator: ", ")
        let section = ConfigSection(table: table, name: name.value, line: line, reader: reader)
        guard let typeName = try reader.string(table, "type", in: "source") else {
            throw section.error("type", "missing (\(names))")
        }
        guard let type = types.first(where: { $0.typeName == typeName.value }) else {
            throw section.error("type", line: typeName.line, "'\(typeName.value)' is not a source type (\(names))")
        }
        return try type.configure(section)
    }
}

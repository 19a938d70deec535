import Base
import Foundation

/// What `config.toml` says, checked: the cache, the network's patience, and the sources.
package struct Configuration: Sendable, Equatable {
    package static let defaultCacheLimit: Int64 = 2 << 30

    /// Where downloaded bytes are kept (`$XDG_CACHE_HOME/cloudplayerd` by default).
    package var cacheDirectory: URL
    /// The cache is trimmed, least recently used first, to stay under this.
    package var cacheLimit: Int64
    /// How long a download may receive nothing before it is dropped and resumed.
    package var readTimeout: Double
    /// How many times a failing download is tried again before playback gives up on the bytes.
    package var retries: Int
    package var sources: [SourceConfiguration]

    package init(cacheDirectory: URL = XDGDirectories.cache, cacheLimit: Int64 = Self.defaultCacheLimit,
                readTimeout: Double = 15, retries: Int = 6, sources: [SourceConfiguration] = []) {
        self.cacheDirectory = cacheDirectory
        self.cacheLimit = cacheLimit
        self.readTimeout = readTimeout
        self.retries = retries
        self.sources = sources
    }

    /// The source whose root is the longest prefix of `url`, if any.
    package func source(for url: URL) -> SourceConfiguration? {
        sources.compactMap { source in source.coverage(of: url).map { (source, $0) } }.max { $0.1 < $1.1 }?.0
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
    package static func parse(_ text: String, relativeTo directory: URL) throws(ConfigError) -> Configuration {
        let document = try TOMLParser.parse(text)
        let reader = ConfigReader(directory: directory)
        try reader.allow(document, keys: ["cache", "network", "source"], in: nil)
        var configuration = Configuration()
        if let cache = try reader.table(document, "cache") {
            try reader.allow(cache, keys: ["max_size", "dir"], in: "cache")
            if let size = try reader.string(cache, "max_size", in: "cache") {
                guard let bytes = ByteCount.parse(size.value) else {
                    throw ConfigError(line: size.line, key: "cache.max_size", "expected a size such as \"2 GiB\", found \"\(size.value)\"")
                }
                configuration.cacheLimit = bytes
            }
            if let dir = try reader.string(cache, "dir", in: "cache") {
                configuration.cacheDirectory = reader.path(dir.value)
            }
        }
        if let network = try reader.table(document, "network") {
            try reader.allow(network, keys: ["read_timeout", "retries"], in: "network")
            if let timeout = try reader.number(network, "read_timeout", in: "network") {
                guard timeout.value > 0 else { throw ConfigError(line: timeout.line, key: "network.read_timeout", "must be more than 0 seconds") }
                configuration.readTimeout = timeout.value
            }
            if let retries = try reader.number(network, "retries", in: "network") {
                guard retries.value >= 0, retries.value <= 100 else { throw ConfigError(line: retries.line, key: "network.retries", "must be between 0 and 100") }
                configuration.retries = Int(retries.value)
            }
        }
        for source in try reader.tables(document, "source") {
            let parsed = try reader.source(source)
            if let clash = configuration.sources.first(where: { $0.name == parsed.name }) {
                throw ConfigError(line: source.line, key: "source.name", "'\(parsed.name)' is used by two sources (the other: \(clash.url.host ?? ""))")
            }
            configuration.sources.append(parsed)
        }
        return configuration
    }
}

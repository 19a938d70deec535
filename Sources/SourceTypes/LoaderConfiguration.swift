import Config
import FoundationEssentials
import Loader

/// The loader's part of `config.toml`: `[cache]` and `[network]` as the loader's settings, and
/// each `[[source]]` read by the source type it names. The daemon's `Configuration` is this and
/// what lies above the loader (playback, scrobbling, MPD); the sources' and the loader's own
/// tests read a config document through this alone, without the daemon.
package struct LoaderConfiguration: Sendable {
    package var loader: LoaderSettings
    package var sources: SourceSet

    package init(loader: LoaderSettings = LoaderSettings(), sources: [any SourceType] = []) {
        self.loader = loader
        self.sources = SourceSet(sources)
    }

    /// Checks a config document. Relative paths in it are taken from `directory`; `~` is home.
    /// `types`: the source types a `[[source]]` may name; each reads its own keys.
    /// `keyring`: where `*_keyring` secrets and the logins' tokens may be kept (none: files).
    package static func parse(_ text: String, relativeTo directory: URL, types: [any SourceType.Type] = SourceTypes.all,
                              keyring: (any SecretKeyring)? = nil) throws(ConfigError) -> LoaderConfiguration {
        try make(from: try ConfigFile.parse(text, relativeTo: directory, keyring: keyring), types: types)
    }

    /// The loader's settings and the sources of a read config file.
    package static func make(from file: ConfigFile, types: [any SourceType.Type] = SourceTypes.all) throws(ConfigError) -> LoaderConfiguration {
        var settings = LoaderSettings()
        if let limit = file.cacheLimit { settings.cacheLimit = limit }
        if let directory = file.cacheDirectory { settings.cacheDirectory = directory }
        if let timeout = file.readTimeout { settings.readTimeout = timeout }
        if let retries = file.retries { settings.retries = retries }
        if let perHost = file.perHost { settings.perHost = perHost }
        if let readAhead = file.readAhead { settings.readAhead = readAhead }
        if let fillWhole = file.fillWhole { settings.fillWhole = fillWhole }
        if let retry = file.streamRetry { settings.streamRetry = retry }
        settings.hlsBandwidth = file.hlsBandwidth
        settings.proxy = file.proxyRules()
        settings.sourceProxies = file.sourceProxies
        if let allow = file.allowPrivateLinks { settings.allowPrivateLinks = allow }
        let sources = try SourceTypes.configure(file.sources, types: types, tokenStore: TokenStore(storage: file.tokenStorage, keyring: file.keyring))
        return LoaderConfiguration(loader: settings, sources: sources)
    }
}

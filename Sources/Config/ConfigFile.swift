import Base
import FoundationEssentials

/// `config.toml` read as far as its shape goes: the `[auth]`, `[cache]`, `[mpd]`, `[network]`, `[playback]` and `[scrobble]` values, checked,
/// and each `[[source]]` with its name, handed on whole to the source type it names.
package struct ConfigFile {
    /// `[cache] max_size`: the cache is trimmed to stay under it.
    package var cacheLimit: Int64?
    /// `[cache] read_ahead`: a file up to this long is read ahead to its end while it plays.
    package var readAhead: Int64?
    /// `[cache] fill`: `"whole"` fetches every file played whole; `"ahead"` (the default) only
    /// what lies ahead of the playing position.
    package var fillWhole: Bool?
    /// `[cache] dir`.
    package var cacheDirectory: URL?
    /// `[network] read_timeout`: seconds without a byte before a download is dropped and resumed.
    package var readTimeout: Double?
    /// `[network] retries`: tries without progress before a track gives up.
    package var retries: Int?
    /// `[network] per_host`: downloads at a time per host.
    package var perHost: Int?
    /// `[network] stream_retry`, in seconds: how long a station whose stream broke is tried again.
    package var streamRetry: Double?
    /// `[network] hls_bandwidth`, bits per second: the highest HLS variant chosen (nil: the highest there is).
    package var hlsBandwidth: Int?
    /// `[network] proxy`: in place of the environment's proxies (`"none"`: never a proxy).
    package var proxy: ProxySetting?
    /// A `[[source]]`'s own `proxy`, by source name: in place of `[network]`'s for that source.
    package var sourceProxies: [String: ProxySetting] = [:]
    /// `[network] allow_private_links`: links remote documents name may lead to this machine and
    /// its network (loopback, private, link-local addresses); off by default.
    package var allowPrivateLinks: Bool?
    /// `[playback] replaygain`: "off", "track", "album" or "auto" (checked here).
    package var replayGainMode: String?
    /// `[playback] replaygain_preamp`, in dB.
    package var replayGainPreamp: Double?
    /// `[playback] replaygain_clip`: keep the tagged peak from clipping.
    package var replayGainClip: Bool?
    /// `[playback] resume_longer_than`, in seconds.
    package var resumeLongerThan: Double?
    /// `[playback] live_resume_within`, in seconds: a station paused longer plays live again.
    package var liveResumeWithin: Double?
    /// `[playback] speed`: the pace tracks play at, the pitch kept (0.5 to 3).
    package var speed: Double?
    /// A `[[source]]`'s own `speed`, by source name: in place of `[playback]`'s for its tracks.
    package var sourceSpeeds: [String: Double] = [:]
    /// `[playback] skip_silence`: long silences shortened (speech); and a source's own.
    package var skipSilence: Bool?
    package var sourceSkipSilence: [String: Bool] = [:]
    /// `[scrobble] listenbrainz_token` (or `_file`, `_command`, `_keyring`): listens go to ListenBrainz.
    package var listenBrainzToken: Secret.Origin?
    /// `[scrobble] stations`: a radio station's songs count as listens too (off: a station plays
    /// what someone else chose).
    package var scrobbleStations = false
    /// `[scrobble] listenbrainz_url`: another ListenBrainz server than the public one.
    package var listenBrainzURL: URL?
    /// `[mpd]`: the MPD protocol server.
    package var mpd = MPDConfig()
    /// `[auth] token_store`: where logins keep their tokens.
    package var tokenStorage = TokenStorage.auto
    /// The keyring `*_keyring` secrets are looked up in and tokens may be kept in, as the program
    /// that read the file offers it.
    package var keyring: (any SecretKeyring)?
    /// Each `[[source]]`, its `name` read (and unique), and its `type` if it has one.
    package var sources: [(type: (value: String, line: Int)?, section: ConfigSection)] = []

    /// The config file to read: `explicit` (`--config`), else `$CLOUDPLAYERD_CONFIG`, else
    /// `$XDG_CONFIG_HOME/cloudplayerd/config.toml`; with `required` false when neither was named.
    package static func location(explicit: String?) -> (path: String, required: Bool) {
        if let explicit { return (explicit, true) }
        if let named = ProcessInfo.processInfo.environment["CLOUDPLAYERD_CONFIG"], !named.isEmpty { return (named, true) }
        return (XDGDirectories.config.appendingPathComponent("config.toml").path, false)
    }

    /// Reads and checks the config file (errors name it); an empty one if it is absent and optional.
    /// `keyring`: where `*_keyring` secrets and tokens may be kept.
    package static func load(explicit: String?, keyring: (any SecretKeyring)? = nil) throws(ConfigError) -> ConfigFile {
        let (path, required) = location(explicit: explicit)
        guard let data = FileManager.default.contents(atPath: path) else {
            if required || FileManager.default.fileExists(atPath: path) {
                throw ConfigError(file: path, line: nil, "cannot read the config file")
            }
            var file = ConfigFile()
            file.keyring = keyring
            return file
        }
        do {
            return try parse(String(decoding: data, as: UTF8.self), relativeTo: URL(fileURLWithPath: path).deletingLastPathComponent(),
                             keyring: keyring)
        } catch var error {
            error.file = path
            throw error
        }
    }

    /// Checks a config document. Relative paths in it are taken from `directory`; `~` is home.
    package static func parse(_ text: String, relativeTo directory: URL, keyring: (any SecretKeyring)? = nil) throws(ConfigError) -> ConfigFile {
        let document = try TOMLParser.parse(text)
        let reader = ConfigReader(directory: directory, keyring: keyring)
        try reader.allow(document, keys: Set(ConfigKeys.tables.keys), in: nil)
        var file = ConfigFile()
        file.keyring = keyring
        if let auth = try reader.table(document, "auth") {
            try reader.allow(auth, keys: ConfigKeys.auth, in: "auth")
            if let store = try reader.string(auth, "token_store", in: "auth") {
                guard let storage = TokenStorage(rawValue: store.value) else {
                    throw ConfigError(line: store.line, key: "auth.token_store", "expected \"auto\", \"keyring\" or \"file\", found \"\(store.value)\"")
                }
                file.tokenStorage = storage
            }
        }
        if let cache = try reader.table(document, "cache") {
            try reader.allow(cache, keys: ConfigKeys.cache, in: "cache")
            for (key, example) in [("max_size", "2 GiB"), ("read_ahead", "64 MiB")] {
                guard let size = try reader.string(cache, key, in: "cache") else { continue }
                guard let bytes = ByteCount.parse(size.value) else {
                    throw ConfigError(line: size.line, key: "cache.\(key)", "expected a size such as \"\(example)\", found \"\(size.value)\"")
                }
                if key == "max_size" { file.cacheLimit = bytes } else { file.readAhead = bytes }
            }
            if let fill = try reader.string(cache, "fill", in: "cache") {
                guard ["whole", "ahead"].contains(fill.value) else {
                    throw ConfigError(line: fill.line, key: "cache.fill", "expected \"ahead\" or \"whole\", found \"\(fill.value)\"")
                }
                file.fillWhole = fill.value == "whole"
            }
            file.cacheDirectory = try reader.string(cache, "dir", in: "cache").map { reader.path($0.value) }
        }
        if let network = try reader.table(document, "network") {
            try reader.allow(network, keys: ConfigKeys.network, in: "network")
            file.proxy = try reader.proxy(network, in: "network")
            file.allowPrivateLinks = try reader.boolean(network, "allow_private_links", in: "network")?.value
            file.streamRetry = try reader.duration(network, "stream_retry", in: "network")
            file.hlsBandwidth = try reader.bitRate(network, "hls_bandwidth", in: "network")
            if let timeout = try reader.number(network, "read_timeout", in: "network") {
                guard timeout.value > 0 else { throw ConfigError(line: timeout.line, key: "network.read_timeout", "must be more than 0 seconds") }
                file.readTimeout = timeout.value
            }
            if let retries = try reader.number(network, "retries", in: "network") {
                guard retries.value >= 0, retries.value <= 100 else { throw ConfigError(line: retries.line, key: "network.retries", "must be between 0 and 100") }
                file.retries = Int(retries.value)
            }
            if let perHost = try reader.number(network, "per_host", in: "network") {
                guard perHost.value >= 1, perHost.value <= 64, perHost.value == perHost.value.rounded() else {
                    throw ConfigError(line: perHost.line, key: "network.per_host", "must be a whole number from 1 to 64")
                }
                file.perHost = Int(perHost.value)
            }
        }
        if let playback = try reader.table(document, "playback") {
            try reader.allow(playback, keys: ConfigKeys.playback, in: "playback")
            file.speed = try reader.speed(playback, in: "playback")
            file.skipSilence = try reader.boolean(playback, "skip_silence", in: "playback")?.value
            file.liveResumeWithin = try reader.duration(playback, "live_resume_within", in: "playback")
            if let mode = try reader.string(playback, "replaygain", in: "playback") {
                let modes = ["off", "track", "album", "auto"]
                guard modes.contains(mode.value) else {
                    throw ConfigError(line: mode.line, key: "playback.replaygain", "expected \"off\", \"track\", \"album\" or \"auto\", found \"\(mode.value)\"")
                }
                file.replayGainMode = mode.value
            }
            if let preamp = try reader.number(playback, "replaygain_preamp", in: "playback") {
                guard abs(preamp.value) <= 24 else {
                    throw ConfigError(line: preamp.line, key: "playback.replaygain_preamp", "must be between -24 and 24 dB")
                }
                file.replayGainPreamp = preamp.value
            }
            file.replayGainClip = try reader.boolean(playback, "replaygain_clip", in: "playback")?.value
            file.resumeLongerThan = try reader.duration(playback, "resume_longer_than", in: "playback")
        }
        if let scrobble = try reader.table(document, "scrobble") {
            try reader.allow(scrobble, keys: ConfigKeys.scrobble, in: "scrobble")
            file.scrobbleStations = try reader.boolean(scrobble, "stations", in: "scrobble")?.value ?? false
            file.listenBrainzToken = try reader.secret(scrobble, "listenbrainz_token", in: "scrobble")
            if let text = try reader.string(scrobble, "listenbrainz_url", in: "scrobble") {
                guard let url = URL(string: text.value), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host != nil,
                      url.user == nil, url.password == nil else {
                    throw ConfigError(line: text.line, key: "scrobble.listenbrainz_url", "expected an http:// or https:// URL without credentials")
                }
                file.listenBrainzURL = url
            }
            if file.listenBrainzURL != nil, file.listenBrainzToken == nil {
                throw ConfigError(line: nil, key: "scrobble.listenbrainz_token",
                                  "missing (listenbrainz_token, _file, _command or _keyring: the user token from listenbrainz.org/settings)")
            }
        }
        file.mpd = try mpd(document, reader: reader)
        for (table, line) in try reader.tables(document, "source") {
            guard let name = try reader.string(table, "name", in: "source"), !name.value.isEmpty else {
                throw ConfigError(line: line, key: "source.name", "every [[source]] needs a name")
            }
            if file.sources.contains(where: { $0.section.name == name.value }) {
                throw ConfigError(line: line, key: "source.name", "'\(name.value)' is used by two sources")
            }
            file.sourceProxies[name.value] = try reader.proxy(table, in: "source '\(name.value)'")
            file.sourceSpeeds[name.value] = try reader.speed(table, in: "source '\(name.value)'")
            file.sourceSkipSilence[name.value] = try reader.boolean(table, "skip_silence", in: "source '\(name.value)'")?.value
            file.sources.append((try reader.string(table, "type", in: "source"),
                                 ConfigSection(table: table, name: name.value, line: line, reader: reader)))
        }
        return file
    }
}

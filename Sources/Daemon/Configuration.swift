import Base
import Config
import FoundationEssentials
import Keyring
import Loader
import Model
import MPD
import Scrobbling
import SourceTypes

/// What `config.toml` says, checked: the cache and the network's patience (`[cache]`,
/// `[network]`), how loud tracks play (`[playback]`), where listens are counted (`[scrobble]`), and the sources —
/// each `[[source]]` table read by the source type it names.
package struct Configuration: Sendable {
    package var loader: LoaderSettings
    package var sources: SourceSet
    /// `[playback]`: ReplayGain, and which tracks resume where they were left.
    package var playback: PlaybackSettings
    /// `[scrobble]`: nil when listens are not sent anywhere.
    package var scrobble: ListenBrainzSettings?
    /// `[mpd]`: the MPD protocol server.
    package var mpd = MPDConfiguration(listen: MPDConfiguration.defaultListen(runtimeDirectory: nil), defaultPermissions: .none, limits: MPDLimits())

    package init(loader: LoaderSettings = LoaderSettings(), sources: [any SourceType] = [],
                 playback: PlaybackSettings = PlaybackSettings(), scrobble: ListenBrainzSettings? = nil) {
        self.loader = loader
        self.sources = SourceSet(sources)
        self.playback = playback
        self.scrobble = scrobble
    }
}

extension Configuration {
    /// Reads and checks the config file; a default configuration if it is absent and optional.
    /// `*_keyring` secrets and the logins' tokens (`[auth] token_store`) use the session bus's
    /// keyring, connected to when first needed.
    /// Every error names the file, also those of the sections read after the file was.
    package static func load(explicit: String?) throws(ConfigError) -> Configuration {
        let file = try ConfigFile.load(explicit: explicit, keyring: SecretService.session)
        do {
            return try make(from: file)
        } catch var error {
            error.file = error.file ?? ConfigFile.location(explicit: explicit).path
            throw error
        }
    }

    /// `load` on the `BlockingPool`: for a reload, which comes while everything else runs.
    package static func read(explicit: String?) async throws -> Configuration {
        try await BlockingPool.shared.run { try load(explicit: explicit) }
    }

    /// Checks a config document, as `LoaderConfiguration.parse` does, with the tables above the
    /// loader's (`[playback]`, `[scrobble]`, `[mpd]`).
    package static func parse(_ text: String, relativeTo directory: URL, types: [any SourceType.Type] = SourceTypes.all,
                              keyring: (any SecretKeyring)? = nil) throws(ConfigError) -> Configuration {
        try make(from: try ConfigFile.parse(text, relativeTo: directory, keyring: keyring), types: types)
    }

    private static func make(from file: ConfigFile, types: [any SourceType.Type] = SourceTypes.all) throws(ConfigError) -> Configuration {
        // `[cache]`, `[network]` and the sources: the loader's part, read where the source types are.
        let loading = try LoaderConfiguration.make(from: file, types: types)
        var playback = PlaybackSettings()
        if let mode = file.replayGainMode.flatMap(ReplayGainSettings.Mode.init(rawValue:)) { playback.loudness.mode = mode }
        if let preamp = file.replayGainPreamp { playback.loudness.preamp = preamp }
        if let clip = file.replayGainClip { playback.loudness.preventClipping = clip }
        if let seconds = file.resumeLongerThan { playback.resumeLongerThan = seconds }
        if let seconds = file.liveResumeWithin { playback.liveResumeWithin = seconds }
        if let speed = file.speed { playback.speed = speed }
        playback.sourceSpeeds = file.sourceSpeeds
        if let skip = file.skipSilence { playback.skipSilence = skip }
        playback.sourceSkipSilence = file.sourceSkipSilence
        let scrobble = file.listenBrainzToken.map { ListenBrainzSettings(url: file.listenBrainzURL ?? ListenBrainzSettings.publicAPI, token: $0,
                                                                                 stations: file.scrobbleStations, proxy: loading.loader.proxy) }
        var configuration = Configuration(loader: loading.loader, playback: playback, scrobble: scrobble)
        configuration.sources = loading.sources  // placed once, by the loader's part
        let runtime = ProcessInfo.processInfo.environment["XDG_RUNTIME_DIR"]
        configuration.mpd = try MPDConfiguration.check(file.mpd, defaultListen: MPDConfiguration.defaultListen(runtimeDirectory: runtime))
        return configuration
    }
}

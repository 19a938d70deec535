/// The tables of the config file and the keys each takes: what the reader allows (anything else
/// is an "unknown key", with the nearest of these suggested), and what the man page must cover
/// (a test reads both). A `[[source]]` takes what its source type allows, besides `common`.
package enum ConfigKeys {
    package static let auth: Set<String> = ["token_store"]
    package static let cache: Set<String> = ["max_size", "dir", "read_ahead", "fill"]
    package static let network: Set<String> = ConfigReader.proxyKeys.union([
        "read_timeout", "retries", "per_host", "stream_retry", "hls_bandwidth", "allow_private_links",
    ])
    package static let playback: Set<String> = [
        "replaygain", "replaygain_preamp", "replaygain_clip", "resume_longer_than", "live_resume_within", "speed", "skip_silence",
    ]
    package static let scrobble: Set<String> = Secret.Origin.keys(for: "listenbrainz_token").union(["listenbrainz_url", "stations"])
    package static let mpd: Set<String> = Secret.Origin.keys(for: "password").union([
        "listen", "default_permissions", "max_connections", "connection_timeout", "max_command_list_size", "max_output_buffer_size",
    ])
    /// What every `[[source]]` may have, whatever its type.
    package static let source: Set<String> = ConfigReader.proxyKeys.union(["name", "type", "speed", "skip_silence"])

    /// Each table by its name in the file.
    package static let tables: [String: Set<String>] = [
        "auth": auth, "cache": cache, "network": network, "playback": playback, "scrobble": scrobble, "mpd": mpd, "source": source,
    ]
}

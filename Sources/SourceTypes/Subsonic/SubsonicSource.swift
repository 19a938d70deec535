import Config
import FoundationEssentials
import Loader
import Model

/// `type = "subsonic"`: a Subsonic or OpenSubsonic server (Navidrome, Airsonic, Gonic, Nextcloud
/// Music, Supysonic). The library comes from the server's own tags, album by album, with no byte
/// of a track read; tracks play through `download` (the original file, with ranges), or as a
/// transcode when `format` names one. Its tracks are `cloudplayer://NAME/song/ID`: no URL, so
/// no credential, is ever part of a location.
package struct SubsonicSource: SourceType, Equatable {
    package static let typeName = "subsonic"

    package let name: String
    /// The server's root (the API is at `rest/` below it).
    package let url: URL
    package let username: String?
    package let password: Secret.Origin?
    /// An OpenSubsonic API key, which needs no username.
    package let apiKey: Secret.Origin?
    /// A transcode asked for (`opus`, `mp3`, `ogg`, `flac`); nil: the original file.
    package let format: String?
    /// kbit/s of a transcode; nil: the server's choice.
    package let maxBitrate: Int?
    package let tlsCAFile: String?

    /// The formats a transcode may ask for: those the player decodes.
    static let formats: Set<String> = ["mp3", "opus", "ogg", "flac"]

    package init(name: String, url: URL, username: String?, password: Secret.Origin?, apiKey: Secret.Origin? = nil,
                 format: String? = nil, maxBitrate: Int? = nil, tlsCAFile: String? = nil) {
        self.name = name
        self.url = url
        self.username = username
        self.password = password
        self.apiKey = apiKey
        self.format = format
        self.maxBitrate = maxBitrate
        self.tlsCAFile = tlsCAFile
    }

    package static func configure(_ section: ConfigSection) throws(ConfigError) -> SubsonicSource {
        try section.allow(Set(["url", "username", "format", "max_bitrate", "tls_ca_file"])
            .union(Secret.Origin.keys(for: "password")).union(Secret.Origin.keys(for: "api_key")))
        guard let url = try section.httpURL("url") else { throw section.error("url", "missing (the server's address)") }
        let username = try section.string("username")?.value
        let password = try section.secret("password")
        let apiKey = try section.secret("api_key")
        if apiKey == nil {
            guard username != nil else { throw section.error("username", "missing (or give api_key for an OpenSubsonic server)") }
            guard password != nil else { throw section.error("password", "missing (password, password_file or password_command)") }
        }
        var format = try section.string("format")
        if format?.value == "raw" { format = nil }
        if let format, !formats.contains(format.value) {
            throw section.error("format", line: format.line, "expected \"raw\" (the default) or one of \(formats.sorted().joined(separator: ", "))")
        }
        var maxBitrate: Int?
        switch section.table["max_bitrate"] {
        case nil: break
        case .integer(let value, let line)?:
            guard (8...1_000).contains(value) else { throw section.error("max_bitrate", line: line, "expected kbit/s, 8 to 1000") }
            guard format != nil else { throw section.error("max_bitrate", line: line, "only a transcode has one: set format too") }
            maxBitrate = Int(value)
        case let other?: throw section.error("max_bitrate", line: other.line, "expected kbit/s, found \(other.kind)")
        }
        return SubsonicSource(name: section.name, url: url, username: username, password: password, apiKey: apiKey,
                              format: format?.value, maxBitrate: maxBitrate, tlsCAFile: try section.path("tls_ca_file")?.path)
    }

    /// None: tracks are the server's ids, not URLs (`cloudplayer://NAME/…`).
    package var root: URL? { nil }
    package var shownLocation: String { TrackLocation(url: url).publicURI }
    package var isScannable: Bool { true }

    /// How its songs are named: as files, or as the transcode asked for.
    func key(ofSong id: String) -> SubsonicKey {
        guard let format else { return .song(id) }
        return .stream(id, format: maxBitrate.map { "\(format)-\($0)" } ?? format)
    }

    package func open(_ environment: SourceEnvironment) throws -> Source {
        let client = try SubsonicClient(source: self, readTimeout: environment.readTimeout, proxy: environment.proxy)
        return Source(storage: SubsonicStorage(client: client), input: .remote(SubsonicInput(client: client)))
    }
}

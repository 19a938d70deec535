import Config
import Foundation
import Loader
import Model

/// `type = "subsonic"`: a Subsonic or OpenSubsonic server (Navidrome, Airsonic, Gonic, Nextcloud
/// Music, Supysonic). The library comes from the server's own tags, album by album, with no byte
/// of a track read; tracks play through `download`: the original file, with ranges, never a
/// transcode. Its tracks are `cloudplayer://NAME/song/ID`: no URL, so no credential, is ever
/// part of a location.
package struct SubsonicSource: SourceType, Equatable {
    package static let typeName = "subsonic"

    package let name: String
    /// The server's root (the API is at `rest/` below it).
    package let url: URL
    package let username: String?
    package let password: Secret.Origin?
    /// An OpenSubsonic API key, which needs no username.
    package let apiKey: Secret.Origin?
    package let tlsCAFile: String?

    package init(name: String, url: URL, username: String?, password: Secret.Origin?, apiKey: Secret.Origin? = nil,
                 tlsCAFile: String? = nil) {
        self.name = name
        self.url = url
        self.username = username
        self.password = password
        self.apiKey = apiKey
        self.tlsCAFile = tlsCAFile
    }

    package static func configure(_ section: ConfigSection) throws(ConfigError) -> SubsonicSource {
        try section.allow(["url", "username", "password", "password_file", "password_command", "api_key", "api_key_file",
                           "api_key_command", "tls_ca_file"])
        guard let url = try section.httpURL("url") else { throw section.error("url", "missing (the server's address)") }
        let username = try section.string("username")?.value
        let password = try section.secret("password")
        let apiKey = try section.secret("api_key")
        if apiKey == nil {
            guard username != nil else { throw section.error("username", "missing (or give api_key for an OpenSubsonic server)") }
            guard password != nil else { throw section.error("password", "missing (password, password_file or password_command)") }
        }
        return SubsonicSource(name: section.name, url: url, username: username, password: password, apiKey: apiKey,
                              tlsCAFile: try section.path("tls_ca_file")?.path)
    }

    /// None: tracks are the server's ids, not URLs (`cloudplayer://NAME/…`).
    package var root: URL? { nil }
    package var shownLocation: String { TrackLocation(url: url).publicURI }
    package var isScannable: Bool { true }

    package func open(_ environment: SourceEnvironment) throws -> Source {
        let client = try SubsonicClient(source: self, readTimeout: environment.readTimeout)
        return Source(storage: SubsonicStorage(client: client), input: .remote(SubsonicInput(client: client)))
    }
}

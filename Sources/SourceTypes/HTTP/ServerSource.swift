import Config
import FoundationEssentials
import Loader

/// A source on an HTTP(S) server — `http`, `webdav`, `feed` — configured by the keys they share
/// (`HTTPServer`); each kind adds how it lists and reads.
package protocol ServerSource: SourceType, Equatable {
    var server: HTTPServer { get }
    init(name: String, server: HTTPServer)
}

extension ServerSource {
    package static func configure(_ section: ConfigSection) throws(ConfigError) -> Self {
        Self(name: section.name, server: try HTTPServer.configure(section))
    }

    package var root: URL? { server.url }
    package var shownLocation: String { server.shownURL }
}

import Config
import FoundationEssentials

/// `[scrobble]`: where listens go and the user token that lets them in.
package struct ListenBrainzSettings: Sendable, Equatable {
    /// The public service (listenbrainz.readthedocs.io: "API Root URL").
    package static let publicAPI = URL(string: "https://api.listenbrainz.org")!

    package var url: URL
    package var token: Secret.Origin
    /// A station's songs count as listens too (`[scrobble] stations`; `StationListens`).
    package var stations: Bool
    /// The proxies listens go through: the same as the sources' (`[network] proxy`, else the environment's).
    package var proxy: ProxyRules

    package init(url: URL = Self.publicAPI, token: Secret.Origin, stations: Bool = false,
                 proxy: ProxyRules = ProxyRules(environment: ProcessInfo.processInfo.environment)) {
        self.url = url
        self.proxy = proxy
        self.token = token
        self.stations = stations
    }

    /// The submission endpoint below the API root (`/1/submit-listens`).
    var submitURL: URL {
        url.appendingPathComponent("1").appendingPathComponent("submit-listens")
    }
}

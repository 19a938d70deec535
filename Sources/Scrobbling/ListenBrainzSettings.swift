import Config
import FoundationEssentials

/// `[scrobble]`: where listens go and the user token that lets them in.
package struct ListenBrainzSettings: Sendable, Equatable {
    /// The public service (listenbrainz.readthedocs.io: "API Root URL").
    package static let publicAPI = URL(string: "https://api.listenbrainz.org")!

    package var url: URL
    package var token: Secret.Origin

    package init(url: URL = Self.publicAPI, token: Secret.Origin) {
        self.url = url
        self.token = token
    }

    /// The submission endpoint below the API root (`/1/submit-listens`).
    var submitURL: URL {
        url.appendingPathComponent("1").appendingPathComponent("submit-listens")
    }
}

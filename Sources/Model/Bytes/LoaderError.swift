import FoundationEssentials
import Glibc

/// Why bytes could not be had. Messages are one line and never contain credentials or URLs
/// (a URL's query may carry a token).
package enum LoaderError: Error, CustomStringConvertible, Equatable {
    case notFound
    case permissionDenied
    case notAFile
    case unsupportedScheme(String)
    case readFailed(String)
    /// The server refused our credentials (401) or access (403).
    case refused(source: String, status: Int)
    /// Any other status that is not an answer.
    case http(status: Int)
    /// The network failed, and went on failing through every retry.
    case network(String)
    /// No connection could be made to the server (refused, no route, no answer to connect): the
    /// network or the server is down. Retried like `network` for a track that is playing.
    case unreachable(String)
    /// A track that is not wholly cached, from a source whose server cannot be reached: skipped
    /// rather than waited for.
    case unavailableOffline(source: String)
    /// The secure connection could not be made (an untrusted certificate, say).
    case tls(String)
    /// The proxy refused the request (407, 403, a SOCKS refusal) or cannot be reached: said whole,
    /// naming the proxy (`scheme://host:port`), not the source's server. Final: retrying does not
    /// change a proxy's mind.
    case proxy(String)
    /// The server answered something that cannot be right.
    case badResponse(String)
    /// The file on the server changed while it was being read: what was read is of another version.
    case changedOnServer
    case configuration(String)
    /// The reader was told to stop (a seek or skip replaced it).
    case cancelled
    /// The server ignores `Range`, and the bytes asked for lie so far in that only the whole
    /// file would bring them (a library scan goes without a tail rather than download it).
    case wholeFileOnly
    /// The server's own protocol said no (a Subsonic answer's error): final, and said in the
    /// source's name, since the answer was an HTTP 200.
    case service(source: String, reason: String)
    /// The answer is a live stream (no length, or a station's `icy-` headers): it is played as it
    /// comes, from a connection of its own, never cached (`LiveStream`).
    case liveStream
    /// The answer is a station list (its `Content-Type`): its entries are played instead.
    case stationList
    /// A station's stream could not be had again after it broke, for as long as
    /// `[network] stream_retry` allows.
    case streamLost(station: String, after: Int, reason: String)
    /// A link a remote document named (a feed's episode, a playlist's or station list's entry)
    /// leads to this machine or its network (`host`, a `kind` address): not fetched, whatever
    /// the server behind it would do with the request (`[network] allow_private_links`).
    case privateLink(host: String, kind: String)

    package var description: String {
        switch self {
        case .notFound: "no such file"
        case .permissionDenied: "permission denied"
        case .notAFile: "not a regular file"
        case .unsupportedScheme(let scheme): "unsupported location scheme '\(scheme)'"
        case .readFailed(let reason): "read failed: \(reason)"
        case .refused(let source, let status):
            status == 401 ? "\(source): the server refused the credentials (HTTP 401); check username and password"
                          : "\(source): access denied by the server (HTTP 403)"
        case .http(let status): "the server answered HTTP \(status)"
        case .network(let reason): "network: \(reason)"
        case .unreachable(let reason): "cannot reach the server: \(reason)"
        case .unavailableOffline(let source): "not available offline (\(source) cannot be reached, and the track is not wholly cached)"
        case .tls(let reason): "TLS: \(reason)"
        case .proxy(let reason): reason
        case .badResponse(let reason): "bad answer from the server: \(reason)"
        case .changedOnServer: "the file changed on the server while playing"
        case .configuration(let reason): reason
        case .cancelled: "cancelled"
        case .wholeFileOnly: "the server sends whole files only, and this part of the file is far from its start"
        case .service(let source, let reason): "\(source): \(reason)"
        case .liveStream: "a live stream"
        case .stationList: "a station list"
        case .streamLost(let station, let seconds, let reason):
            "\(station): the stream broke and could not be had again within \(seconds) s (\(reason))"
        case .privateLink(let host, let kind):
            "refused: a remote document (a feed, a playlist, a station list) names \(host), a \(kind) address; "
                + "only the user or a file of this machine may name one (see [network] allow_private_links)"
        }
    }

    /// Worth trying again: the network or the server had a bad moment.
    package var isTransient: Bool {
        switch self {
        case .network, .unreachable: true
        case .http(let status): status >= 500 || status == 408 || status == 429
        default: false
        }
    }

    package static func fromErrno(_ code: Int32) -> LoaderError {
        switch code {
        case ENOENT, ENOTDIR: .notFound
        case EACCES, EPERM: .permissionDenied
        case EISDIR: .notAFile
        default: .readFailed(String(cString: strerror(code)))
        }
    }
}

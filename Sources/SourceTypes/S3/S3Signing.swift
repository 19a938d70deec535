import Base
import FoundationEssentials
import Model
import NIOHTTP1

/// What a bucket's requests are signed with, and where they go: the keys (read on first use),
/// the region (which a server's answer may correct), the host (moved with the region on AWS's
/// own endpoints) and the offset of the server's clock from ours (which an answer of
/// `RequestTimeTooSkewed` tells). Shared by the transport, which signs each request, and the
/// bucket, which corrects it.
package final class S3Signing: Sendable {
    private struct State {
        var region: String
        var origin: URLOrigin
        var clockOffset: TimeInterval = 0
    }

    let source: String
    let bucket: String
    let pathStyle: Bool
    private let credentialSource: S3CredentialSource
    private let credentials = Resolved<S3Signer.Credentials>()
    private let state: Locked<State>

    package init(source: S3Source) throws {
        guard let origin = URLOrigin(source.endpoint), !origin.host.isEmpty else {
            throw LoaderError.configuration("source '\(source.name)': the endpoint is no http(s) address")
        }
        self.source = source.name
        bucket = source.bucket
        pathStyle = source.pathStyle
        credentialSource = source.credentials
        state = Locked(State(region: source.region, origin: origin))
    }

    var region: String { state.withLock { $0.region } }

    /// The server requests go to (`https://host[:port]`), which the loader remembers a server
    /// that ignores ranges by.
    var server: String { state.withLock { $0.origin.description } }

    /// The URL of an object (`key`), or of the bucket itself (nil) with a query.
    package func url(key: String?, query: [(String, String)] = []) -> URL {
        let origin = state.withLock { $0.origin }
        let host = pathStyle ? origin.host : "\(bucket).\(origin.host)"
        var text = "\(origin.scheme)://\(host)" + (origin.port.map { ":\($0)" } ?? "")
        if pathStyle { text += "/" + S3Signer.encode(bucket) }
        if let key { text += "/" + S3Signer.encode(path: key) } else if !pathStyle { text += "/" }
        if !query.isEmpty {
            text += "?" + query.map { S3Signer.encode($0.0) + "=" + S3Signer.encode($0.1) }.joined(separator: "&")
        }
        return URL(string: text)!
    }

    /// The signed headers for a request to `url`, made `now` (by our clock); none for a URL of
    /// another server (a redirect elsewhere goes without them).
    package nonisolated(nonsending) func headers(for url: URL, method: String, now: Date = Date()) async throws -> HTTPHeaders {
        let origin = state.withLock { $0.origin }
        guard let target = URLOrigin(url), target.scheme == origin.scheme, target.port == origin.port,
              target.host == (pathStyle ? origin.host : "\(bucket).\(origin.host)".lowercased()) else { return [:] }
        let keys = try await credentials.value { [credentialSource, source] in try await credentialSource.resolve(source: source) }
        let (region, offset) = state.withLock { ($0.region, $0.clockOffset) }
        guard let parts = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return [:] }
        let query: [(String, String)] = (parts.percentEncodedQuery ?? "").split(separator: "&").map { pair in
            let halves = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (PercentEncoding.decoded(halves[0]) ?? String(halves[0]),
                    halves.count > 1 ? PercentEncoding.decoded(halves[1]) ?? String(halves[1]) : "")
        }
        let host = target.host + (target.port.map { ":\($0)" } ?? "")
        let signer = S3Signer(credentials: keys, region: region)
        var headers = HTTPHeaders()
        for (name, value) in signer.headers(method: method, host: host, path: parts.percentEncodedPath, query: query,
                                            at: now.addingTimeInterval(offset)) {
            headers.add(name: name, value: value)
        }
        return headers
    }

    /// Signs for `region` from now on; on AWS's own endpoints, sends to that region's endpoint
    /// too. False when that is the region already.
    func move(to region: String) -> Bool {
        state.withLock { state in
            guard state.region != region else { return false }
            state.region = region
            let host = state.origin.host
            if host == "s3.amazonaws.com" || (host.hasPrefix("s3.") || host.hasPrefix("s3-")) && host.hasSuffix(".amazonaws.com"),
               let moved = URL(string: "\(state.origin.scheme)://s3.\(region).amazonaws.com").flatMap(URLOrigin.init) {
                state.origin = moved
            }
            return true
        }
    }

    /// Signs with the server's clock from now on: `serverTime` is what it said the time was.
    func adjustClock(toServerTime serverTime: Date) {
        state.withLock { $0.clockOffset = serverTime.timeIntervalSinceNow }
    }

    /// How far our signing clock is from `serverTime`, in seconds.
    func skew(from serverTime: Date) -> TimeInterval {
        let offset = state.withLock { $0.clockOffset }
        return abs(serverTime.timeIntervalSinceNow - offset)
    }
}

import CCurl
import Config
import FoundationEssentials
import Model

extension HTTPTransport {
    /// A failed request's error, said for the place it failed: the proxy when the proxy refused
    /// (`ProxyFailure`), the server's certificate with the setting that would trust it.
    func failure(_ error: any Error, at url: URL, through proxy: ProxyServer?) -> LoaderError {
        if let proxy, let failure = error as? CurlFailure, let message = ProxyFailure.message(failure, proxy: proxy, target: url) {
            return .proxy(message)
        }
        if let failure = error as? CurlFailure, failure.isTLS {
            let origin = "https://\(url.host(percentEncoded: false) ?? "?"):\(url.port ?? 443)"
            // libcurl's sentence is the only place the kind of certificate failure is said.
            if failure.detail.contains("subject name") || failure.detail.contains("does not match target host") {
                return .tls("the certificate of \(origin) is for another host name")
            }
            guard failure.is(CURLE_PEER_FAILED_VERIFICATION) else {
                return .tls("the secure connection to \(origin) failed")
            }
            let setting = offersCAFile ? " or set tls_ca_file for source '\(name)'" : ""
            return .tls("the certificate of \(origin) is not trusted (its issuer is not a known CA); "
                        + "add its CA to the system store (update-ca-certificates)\(setting)")
        }
        // No connection: which host and port was tried (a typo in the url, a server that is down).
        if let failure = error as? CurlFailure, failure.isConnectFailure, !failure.is(CURLE_COULDNT_RESOLVE_PROXY), let host = url.host(percentEncoded: false) {
            let port = url.port ?? (url.scheme?.lowercased() == "https" ? 443 : 80)
            return .unreachable("\(failure.description) (\(host.contains(":") ? "[\(host)]" : host):\(port))")
        }
        return Self.loaderError(error)
    }

    /// A transport error as a loader error: TLS failures are final (retrying cannot make a
    /// certificate trusted), the rest is the network's bad moment.
    package static func loaderError(_ error: any Error) -> LoaderError {
        if let error = error as? LoaderError { return error }
        if error is CancellationError { return .cancelled }
        guard let failure = error as? CurlFailure else {
            // Not libcurl's: said by its type's name only (a value may hold a URL with a token).
            return .network(String(describing: error).split(separator: "(").first.map { String($0) } ?? "network error")
        }
        if failure.is(CURLE_UNSUPPORTED_PROTOCOL) || failure.is(CURLE_WEIRD_SERVER_REPLY) {
            // A status line that is neither `HTTP/…` nor `ICY …` (libcurl calls it HTTP/0.9).
            return .badResponse("the server's answer is neither HTTP nor ICY")
        }
        if failure.isTLS {
            return failure.is(CURLE_PEER_FAILED_VERIFICATION)
                ? .tls("the server's certificate is not trusted (for a self-signed server, set tls_ca_file)")
                : .tls("the secure connection failed")
        }
        return failure.isConnectFailure ? .unreachable(failure.description) : .network(failure.description)
    }
}

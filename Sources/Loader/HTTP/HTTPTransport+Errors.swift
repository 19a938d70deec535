import AsyncHTTPClient
import Config
import FoundationEssentials
import Glibc
import Model
import NIOCore
import NIOPosix
import NIOSSL

extension HTTPTransport {
    /// A failed request's error, said for the place it failed: the proxy when the proxy refused
    /// (`ProxyFailure`), the server's certificate with the setting that would trust it.
    func failure(_ error: any Error, at url: URL, through proxy: ProxyServer?) -> LoaderError {
        if let proxy, let message = ProxyFailure.message(error, proxy: proxy, target: url) { return .proxy(message) }
        if Self.isTLSFailure(error) {
            let origin = "https://\(url.host(percentEncoded: false) ?? "?"):\(url.port ?? 443)"
            let text = String(describing: error)
            if text.contains("failedToValidateHostname") {
                return .tls("the certificate of \(origin) is for another host name")
            }
            guard text.contains("CERTIFICATE_VERIFY_FAILED") || text.contains("certificate") else {
                return .tls("the secure connection to \(origin) failed")
            }
            let setting = offersCAFile ? " or set tls_ca_file for source '\(name)'" : ""
            return .tls("the certificate of \(origin) is not trusted (its issuer is not a known CA); "
                        + "add its CA to the system store (update-ca-certificates)\(setting)")
        }
        return Self.loaderError(error)
    }

    private static func isTLSFailure(_ error: any Error) -> Bool {
        let text = String(describing: error)
        return error is NIOSSLError || error is BoringSSLError || error is NIOSSLExtraError || text.contains("SSL") || text.contains("certificate")
    }

    /// A transport error as a loader error: TLS failures are final (retrying cannot make a
    /// certificate trusted), the rest is the network's bad moment.
    package static func loaderError(_ error: any Error) -> LoaderError {
        if let error = error as? LoaderError { return error }
        let text = String(describing: error)
        if isTLSFailure(error) {
            if text.contains("CERTIFICATE_VERIFY_FAILED") || text.contains("certificate") {
                return .tls("the server's certificate is not trusted (for a self-signed server, set tls_ca_file)")
            }
            return .tls("the secure connection failed")
        }
        if isConnectFailure(error) { return .unreachable(describe(error)) }
        return .network(describe(error))
    }

    /// Whether no connection could be made at all — as opposed to one that broke.
    static func isConnectFailure(_ error: any Error) -> Bool {
        if error is NIOConnectionError { return true }
        if let error = error as? ChannelError, case .connectTimeout = error { return true }
        if let error = error as? HTTPClientError, error == .connectTimeout { return true }
        if let error = error as? IOError {
            return [ECONNREFUSED, EHOSTUNREACH, ENETUNREACH, EHOSTDOWN, ENETDOWN].contains(error.errnoCode)
        }
        return false
    }

    /// A transport error in words, without URLs (they may carry tokens in their query).
    static func describe(_ error: any Error) -> String {
        if let error = error as? HTTPClientError {
            switch error {
            case .readTimeout: return "the server stopped sending"
            case .connectTimeout: return "the server did not answer"
            case .remoteConnectionClosed: return "the server closed the connection"
            default: break
            }
        }
        if let error = error as? IOError { return String(cString: strerror(error.errnoCode)) }
        if let error = error as? NIOConnectionError, let first = error.connectionErrors.first?.error { return describe(first) }
        return String(describing: error).split(separator: "(").first.map { String($0) } ?? "network error"
    }
}

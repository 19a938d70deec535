import AsyncHTTPClient
import Config
import FoundationEssentials
import NIOSOCKS

/// A proxy's refusal in one sentence that names the proxy (`scheme://host:port`, never its
/// credentials) rather than the source's server: the user's fix is in the proxy settings.
enum ProxyFailure {
    static func refused(_ proxy: ProxyServer, _ why: String) -> String {
        "the proxy \(proxy) refused the connection (\(why))"
    }

    /// The message for `error` if it is the proxy's doing; nil for an error of the server behind it.
    static func message(_ error: any Error, proxy: ProxyServer, target: URL) -> String? {
        let place = "\(target.host(percentEncoded: false) ?? "?"):\(target.port ?? (target.scheme?.lowercased() == "https" ? 443 : 80))"
        if let error = error as? HTTPClientError {
            switch error {
            case .proxyAuthenticationRequired:
                return refused(proxy, proxy.username == nil ? "407 proxy authentication required: give the user and password in the proxy URL"
                                                            : "407 proxy authentication required: the user name or password is wrong")
            case .invalidProxyResponse:
                // Its status is not kept by the HTTP client: 401 (tinyproxy's answer to a wrong
                // password), 403, 502 alike.
                return refused(proxy, "it would not open a tunnel to \(place): "
                               + (proxy.username == nil ? "a host it does not allow, or it wants a user name and password"
                                                        : "a wrong user name or password, or a host it does not allow"))
            case .socksHandshakeTimeout: return "the proxy \(proxy) did not answer the SOCKS handshake"
            case .connectTimeout: return "the proxy \(proxy) did not answer"
            default: break
            }
        }
        if let error = error as? ProxyTunnelRefusal {
            return refused(proxy, error.status == 407 ? "407 proxy authentication required" : "it answered CONNECT \(place) with \(error.status)")
        }
        if let error = error as? SOCKSError.ConnectionFailed { return refused(proxy, "SOCKS5: \(socksReply(error.reply.value)) for \(place)") }
        if error is SOCKSError.NoValidAuthenticationMethod || error is SOCKSError.InvalidAuthenticationSelection {
            return refused(proxy, "SOCKS5: it asks for a user name and password, which cloudplayerd cannot give a SOCKS proxy")
        }
        if error is SOCKSError.InvalidProtocolVersion { return "the proxy \(proxy) does not speak SOCKS5" }
        if HTTPTransport.isConnectFailure(error) {
            return "the proxy \(proxy) cannot be reached (\(HTTPTransport.describe(error)))"
        }
        return nil
    }

    /// A SOCKS5 reply code in words (RFC 1928, section 6).
    static func socksReply(_ code: UInt8) -> String {
        let words = [1: "general failure", 2: "not allowed by its rules", 3: "network unreachable", 4: "host unreachable",
                     5: "connection refused", 6: "TTL expired", 7: "command not supported", 8: "address type not supported"]
        return "reply \(code), \(words[Int(code)] ?? "unknown")"
    }
}

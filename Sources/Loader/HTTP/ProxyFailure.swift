import CCurl
import Config
import FoundationEssentials

/// A proxy's refusal in one sentence that names the proxy (`scheme://host:port`, never its
/// credentials) rather than the source's server: the user's fix is in the proxy settings.
enum ProxyFailure {
    static func refused(_ proxy: ProxyServer, _ why: String) -> String {
        "the proxy \(proxy) refused the connection (\(why))"
    }

    /// `host:port` of the server a request was for, as the proxy was asked to reach it.
    private static func place(of target: URL) -> String {
        "\(target.host(percentEncoded: false) ?? "?"):\(target.port ?? (target.scheme?.lowercased() == "https" ? 443 : 80))"
    }

    /// The proxy's 407, in a tunnel's answer or a forwarded request's.
    private static func authenticationRequired(_ proxy: ProxyServer) -> String {
        refused(proxy, proxy.username == nil ? "407 proxy authentication required: give the user and password in the proxy URL"
                                             : "407 proxy authentication required: the user name or password is wrong")
    }

    /// The message for `failure` if it is the proxy's doing; nil for a failure of the server behind it.
    static func message(_ failure: CurlFailure, proxy: ProxyServer, target: URL) -> String? {
        let place = place(of: target)
        switch failure.tunnelStatus {
        case 0, 200:
            break
        case 407:
            return authenticationRequired(proxy)
        default:
            // 401 (tinyproxy's answer to a wrong password), 403, 502 alike.
            return refused(proxy, "it would not open a tunnel to \(place): "
                           + (proxy.username == nil ? "a host it does not allow, or it wants a user name and password"
                                                    : "a wrong user name or password, or a host it does not allow"))
        }
        if failure.is(CURLE_PROXY) {
            return socksMessage(CURLproxycode(failure.proxyCode), proxy: proxy, place: place)
        }
        // With a proxy, every connection libcurl opens is to the proxy.
        if failure.reason == .unanswered || failure.is(CURLE_OPERATION_TIMEDOUT) { return "the proxy \(proxy) did not answer" }
        if failure.isConnectFailure { return "the proxy \(proxy) cannot be reached (\(failure))" }
        return nil
    }

    /// The proxy's own refusal of a request it was to forward (an `http://` one: no tunnel), if
    /// the answer is one: a 407 is the proxy's (no server asks for a proxy's password), and so is
    /// tinyproxy's 401 for a wrong password, told from a server's by the `Server` tinyproxy puts
    /// on its own answers (a server's it passes on unchanged); Squid marks each answer it makes
    /// itself with `X-Squid-Error: ERR_… errno` (its error pages, squid-cache.org/Doc/config/deny_info).
    static func forwardedRefusal(_ answer: HTTPAnswer, proxy: ProxyServer, target: URL) -> String? {
        guard proxy.kind == .http, target.scheme?.lowercased() == "http", answer.status.code >= 400 else { return nil }
        let place = place(of: target)
        if answer.status.code == 407 { return authenticationRequired(proxy) }
        if answer.status.code == 401, answer.headers.first(name: "Server")?.lowercased().hasPrefix("tinyproxy") == true {
            return refused(proxy, "a wrong user name or password")
        }
        guard let squid = answer.headers.first(name: "X-Squid-Error")?.split(separator: " ").first.map(String.init) else { return nil }
        switch squid {
        case "ERR_ACCESS_DENIED":
            return refused(proxy, "\(answer.status.code): its rules do not allow \(place)")
        case "ERR_CONNECT_FAIL", "ERR_DNS_FAIL", "ERR_READ_TIMEOUT", "ERR_CONNECT_TIMEOUT":
            return "the proxy \(proxy) could not reach \(place) (\(squid))"
        default:
            return "the proxy \(proxy) answered \(answer.status.code) for \(place) (\(squid))"
        }
    }

    /// A SOCKS5 proxy's refusal, as libcurl read it from the handshake (RFC 1928, RFC 1929).
    private static func socksMessage(_ code: CURLproxycode, proxy: ProxyServer, place: String) -> String? {
        // The reply codes of RFC 1928, section 6, as libcurl names them.
        let replies: [(CURLproxycode, UInt8)] = [
            (CURLPX_REPLY_GENERAL_SERVER_FAILURE, 1), (CURLPX_REPLY_NOT_ALLOWED, 2), (CURLPX_REPLY_NETWORK_UNREACHABLE, 3),
            (CURLPX_REPLY_HOST_UNREACHABLE, 4), (CURLPX_REPLY_CONNECTION_REFUSED, 5), (CURLPX_REPLY_TTL_EXPIRED, 6),
            (CURLPX_REPLY_COMMAND_NOT_SUPPORTED, 7), (CURLPX_REPLY_ADDRESS_TYPE_NOT_SUPPORTED, 8),
        ]
        if let reply = replies.first(where: { $0.0 == code }) { return refused(proxy, "SOCKS5: \(socksReply(reply.1)) for \(place)") }
        switch code {
        case CURLPX_NO_AUTH, CURLPX_USER_REJECTED, CURLPX_SEND_AUTH:
            return refused(proxy, "SOCKS5: it asks for a user name and password, which cloudplayerd cannot give a SOCKS proxy")
        case CURLPX_BAD_VERSION:
            return "the proxy \(proxy) does not speak SOCKS5"
        default:
            return "the proxy \(proxy) failed the SOCKS5 handshake for \(place)"
        }
    }

    /// A SOCKS5 reply code in words (RFC 1928, section 6).
    static func socksReply(_ code: UInt8) -> String {
        let words = [1: "general failure", 2: "not allowed by its rules", 3: "network unreachable", 4: "host unreachable",
                     5: "connection refused", 6: "TTL expired", 7: "command not supported", 8: "address type not supported"]
        return "reply \(code), \(words[Int(code)] ?? "unknown")"
    }
}

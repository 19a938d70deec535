import CCurl
import Glibc

/// Why a transfer ended without its whole answer, as libcurl told it: its result code with the
/// details the errors are made of (`HTTPTransport.failure`, `ProxyFailure`), or our own clock's
/// verdict. Carries no URL, so no token in a query can reach a message.
struct CurlFailure: Error, Sendable, CustomStringConvertible {
    enum Reason: Equatable, Sendable {
        /// A `CURLcode` other than `CURLE_OK`.
        case libcurl(UInt32)
        /// The server was silent for the read timeout while asked for bytes.
        case silent
        /// No connection was made within the read timeout.
        case unanswered
    }

    var reason: Reason
    /// libcurl's own sentence (its error buffer): read for the kind of TLS failure, never shown.
    var detail = ""
    /// The system's error number behind a failed connect, send or receive (0: none).
    var systemError: Int32 = 0
    /// The status a proxy answered `CONNECT` with (0: no tunnel was asked for).
    var tunnelStatus = 0
    /// A SOCKS proxy's refusal (`CURLproxycode`; 0: none).
    var proxyCode: UInt32 = 0

    func `is`(_ code: CURLcode) -> Bool { reason == .libcurl(code.rawValue) }

    /// libcurl's result codes for a TLS handshake or certificate that failed.
    private static let tlsCodes: [CURLcode] = [
        CURLE_SSL_CONNECT_ERROR, CURLE_SSL_ENGINE_NOTFOUND, CURLE_SSL_ENGINE_SETFAILED, CURLE_SSL_CERTPROBLEM,
        CURLE_SSL_CIPHER, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_ENGINE_INITFAILED, CURLE_SSL_CACERT_BADFILE,
        CURLE_SSL_SHUTDOWN_FAILED, CURLE_SSL_CRL_BADFILE, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH,
        CURLE_SSL_INVALIDCERTSTATUS, CURLE_SSL_CLIENTCERT,
    ]

    var isTLS: Bool { Self.tlsCodes.contains(where: `is`) }

    /// The server (or proxy) could not be reached at all, as opposed to a connection that broke.
    var isConnectFailure: Bool {
        reason == .unanswered || `is`(CURLE_COULDNT_CONNECT) || `is`(CURLE_COULDNT_RESOLVE_HOST)
            || `is`(CURLE_COULDNT_RESOLVE_PROXY) || `is`(CURLE_OPERATION_TIMEDOUT)
    }

    /// The failure in words, without URLs or hosts.
    var description: String {
        switch reason {
        case .silent: return "the server stopped sending"
        case .unanswered: return "the server did not answer"
        case .libcurl(let code):
            switch CURLcode(code) {
            case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY: return "cannot resolve the host"
            case CURLE_OPERATION_TIMEDOUT: return "the server did not answer"
            case CURLE_GOT_NOTHING, CURLE_PARTIAL_FILE: return "the server closed the connection"
            case CURLE_COULDNT_CONNECT, CURLE_SEND_ERROR, CURLE_RECV_ERROR:
                if systemError != 0 { return String(cString: strerror(systemError)) }
                return `is`(CURLE_COULDNT_CONNECT) ? "cannot connect" : "the server closed the connection"
            case CURLE_TOO_MANY_REDIRECTS: return "too many redirects"
            default: return String(cString: cp_curl_easy_strerror(CURLcode(code)))
            }
        }
    }
}

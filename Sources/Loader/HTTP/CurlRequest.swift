import CCurl
import FoundationEssentials
import NIOHTTP1

/// One request as libcurl is asked it (`CurlEngine.send`): the transport has chosen its proxy and
/// its credentials; this sets an easy handle up to send exactly that — no redirects followed (the
/// transport follows them, so that credentials go only to their origin), no proxy but the one
/// given (never libcurl's own reading of the environment), HTTP/1.1, and no header the caller did
/// not give but `Host` and, for a body, its length.
struct CurlRequest: Sendable {
    var url: URL
    var method: HTTPMethod
    var headers: HTTPHeaders
    var body: String?
    /// The proxy as libcurl names it (`http://host:port`, `socks5h://host:port`); nil: straight
    /// to the server.
    var proxy: String?
    var proxyUser: String?
    var proxyPassword: String?
    /// The certificates to trust (a self-signed server), in place of the system bundle.
    var caFile: String?
    /// The longest a connection may take to open (and, in `CurlTransfer`, the server may be silent).
    var timeoutMilliseconds: Int
    /// The connection must reach a public address (a link's: `PrivateAddresses`), checked by
    /// `CurlTransfer` once libcurl has connected, before the request is sent.
    var publicOnly = false

    /// Sets `easy` up; returns the header lists libcurl reads during the transfer, to be freed after it.
    func configure(_ easy: UnsafeMutableRawPointer, errors: UnsafeMutablePointer<CChar>) throws(CurlFailure) -> [UnsafeMutablePointer<curl_slist>] {
        var lists: [UnsafeMutablePointer<curl_slist>] = []
        func check(_ code: CURLcode) throws(CurlFailure) {
            guard code == CURLE_OK else {
                for list in lists { cp_curl_slist_free_all(list) }
                throw CurlFailure(reason: .libcurl(code.rawValue))
            }
        }
        func list(_ lines: [String]) -> UnsafeMutablePointer<curl_slist>? {
            var head: UnsafeMutablePointer<curl_slist>?
            for line in lines { head = cp_curl_slist_append(head, line) }
            if let head { lists.append(head) }
            return head
        }
        try check(cp_curl_set_pointer(easy, CURLOPT_ERRORBUFFER, errors))
        try check(cp_curl_set_string(easy, CURLOPT_URL, url.absoluteString))
        try check(cp_curl_set_string(easy, CURLOPT_PROTOCOLS_STR, "http,https"))
        // The path as given: an S3 key or a WebDAV name may hold `..` and `//`, which libcurl
        // would otherwise fold away.
        try check(cp_curl_set_long(easy, CURLOPT_PATH_AS_IS, 1))
        try check(cp_curl_set_long(easy, CURLOPT_HTTP_VERSION, CURL_HTTP_VERSION_1_1))
        try check(cp_curl_set_long(easy, CURLOPT_NOSIGNAL, 1))
        try check(cp_curl_set_long(easy, CURLOPT_CONNECTTIMEOUT_MS, timeoutMilliseconds))
        switch method {
        case .GET: try check(cp_curl_set_long(easy, CURLOPT_HTTPGET, 1))
        case .HEAD: try check(cp_curl_set_long(easy, CURLOPT_NOBODY, 1))
        case .POST: try check(cp_curl_set_long(easy, CURLOPT_POST, 1))
        default: try check(cp_curl_set_string(easy, CURLOPT_CUSTOMREQUEST, method.rawValue))
        }
        if let body {
            try check(cp_curl_set_offset(easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.utf8.count)))
            try check(cp_curl_set_string(easy, CURLOPT_COPYPOSTFIELDS, body))
        } else if method == .POST {
            try check(cp_curl_set_offset(easy, CURLOPT_POSTFIELDSIZE_LARGE, 0))
            try check(cp_curl_set_string(easy, CURLOPT_COPYPOSTFIELDS, ""))
        }
        // The caller's headers as given; libcurl's own `Accept`, `Expect: 100-continue` and a
        // body's form `Content-Type` are not sent (a name with no value removes libcurl's).
        var lines = headers.map { $0.value.isEmpty ? "\($0.name);" : "\($0.name): \($0.value)" }
        for name in ["Accept", "Expect", "Content-Type"] where !headers.contains(name: name) { lines.append("\(name):") }
        try check(cp_curl_set_pointer(easy, CURLOPT_HTTPHEADER, list(lines)))
        // A SHOUTcast 1 station's `ICY 200 OK` is an HTTP/1.0 status line to libcurl (its status
        // is read from the line itself, `CurlTransfer`).
        if method == .GET, url.scheme?.lowercased() == "http" {
            try check(cp_curl_set_pointer(easy, CURLOPT_HTTP200ALIASES, list(["ICY"])))
        }
        try check(cp_curl_set_string(easy, CURLOPT_PROXY, proxy ?? ""))
        if proxy != nil {
            // Through an HTTP proxy an `https://` request goes in a `CONNECT` tunnel (the proxy sees
            // the host and port only; the tunnel's own answer is not the server's); an `http://` one
            // is forwarded, its absolute URL sent to the proxy, as curl and mpv send it — Squid's
            // default rules refuse `CONNECT` to any port but 443, and most stations are `http://`
            // on port 8000. (The proxy then sees an `http://` request whole, as it would anyway.)
            let tunnels = url.scheme?.lowercased() != "http"
            try check(cp_curl_set_long(easy, CURLOPT_HTTPPROXYTUNNEL, tunnels ? 1 : 0))
            try check(cp_curl_set_long(easy, CURLOPT_SUPPRESS_CONNECT_HEADERS, 1))
            if let proxyUser {
                try check(cp_curl_set_string(easy, CURLOPT_PROXYUSERNAME, proxyUser))
                try check(cp_curl_set_string(easy, CURLOPT_PROXYPASSWORD, proxyPassword ?? ""))
            }
        }
        if let caFile { try check(cp_curl_set_string(easy, CURLOPT_CAINFO, caFile)) }
        return lists
    }
}

import Base
import Config
import FoundationEssentials

/// AWS Signature Version 4 in header form, as S3 checks it: the payload left unsigned
/// (`UNSIGNED-PAYLOAD`, the player only reads), and S3's own canonical URI — the path exactly as
/// sent, each key byte encoded once and never path-normalised (`..` and `//` are parts of a key).
/// Checked in the tests against botocore's `S3SigV4Auth`.
package struct S3Signer: Sendable {
    /// Who signs.
    package struct Credentials: Sendable, Equatable {
        package var accessKeyID: String
        package var secretAccessKey: Secret
        /// A temporary credential's token (`x-amz-security-token`), signed with the rest.
        package var sessionToken: Secret?

        package init(accessKeyID: String, secretAccessKey: Secret, sessionToken: Secret? = nil) {
            self.accessKeyID = accessKeyID
            self.secretAccessKey = secretAccessKey
            self.sessionToken = sessionToken
        }
    }

    package init(credentials: Credentials, region: String) {
        self.credentials = credentials
        self.region = region
    }

    package var credentials: Credentials
    package var region: String

    /// The headers that sign a request: `x-amz-date`, `x-amz-content-sha256`, the session token
    /// if any, and `Authorization`. `host` is the Host header as sent (with `:port` when not the
    /// scheme's default); `path` the encoded path as sent (`S3Signer.encode(path:)`); `query`
    /// the decoded names and values.
    package func headers(method: String, host: String, path: String, query: [(String, String)], at time: Date) -> [(String, String)] {
        let stamp = Self.timestamp(time)
        let day = String(stamp.prefix(8))
        var signed: [(String, String)] = [("host", host), ("x-amz-content-sha256", "UNSIGNED-PAYLOAD"), ("x-amz-date", stamp)]
        if let token = credentials.sessionToken { signed.append(("x-amz-security-token", token.reveal())) }
        signed.sort { $0.0 < $1.0 }
        let names = signed.map(\.0).joined(separator: ";")
        let encoded: [(name: String, value: String)] = query.map { (Self.encode($0.0), Self.encode($0.1)) }
        let canonicalQuery = encoded.sorted { $0.name == $1.name ? $0.value < $1.value : $0.name < $1.name }
            .map { $0.name + "=" + $0.value }.joined(separator: "&")
        let canonicalHeaders = signed.map { $0.0 + ":" + $0.1.trimmingBlanks() + "\n" }.joined()
        let canonical = [method, path.isEmpty ? "/" : path, canonicalQuery, canonicalHeaders, names, "UNSIGNED-PAYLOAD"]
            .joined(separator: "\n")
        let scope = "\(day)/\(region)/s3/aws4_request"
        let toSign = ["AWS4-HMAC-SHA256", stamp, scope, Self.hex(SHA256.hash(Array(canonical.utf8)))].joined(separator: "\n")
        var key = Array("AWS4\(credentials.secretAccessKey.reveal())".utf8)
        for part in [day, region, "s3", "aws4_request"] {
            key = HMACSHA256.code(for: Array(part.utf8), key: key)
        }
        let signature = Self.hex(HMACSHA256.code(for: Array(toSign.utf8), key: key))
        var headers = signed.filter { $0.0 != "host" }
        headers.append(("Authorization", "AWS4-HMAC-SHA256 Credential=\(credentials.accessKeyID)/\(scope), "
                            + "SignedHeaders=\(names), Signature=\(signature)"))
        return headers
    }

    /// A key (or any text) as S3 wants it in a URL path: every byte of its UTF-8 outside RFC
    /// 3986's unreserved set percent-encoded, `/` kept as it is.
    package static func encode(path: String) -> String {
        path.split(separator: "/", omittingEmptySubsequences: false).map { encode(String($0)) }.joined(separator: "/")
    }

    /// Every byte outside `A-Z a-z 0-9 - . _ ~` as `%XX` (upper case), as SigV4 wants names and
    /// values of a query, and segments of a path.
    package static func encode(_ text: String) -> String {
        FormEncoding.encode(text)
    }

    /// `YYYYMMDDTHHMMSSZ` in UTC.
    package static func timestamp(_ time: Date) -> String {
        CalendarTime.utc(time.timeIntervalSince1970).basicStamp
    }

    private static func hex<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        bytes.map { $0.hexDigits(2) }.joined()
    }
}

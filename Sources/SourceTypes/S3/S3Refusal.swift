import Model
import Parsers
import S3Answers

/// An S3 server's refusal as one line naming the source, with the server's error code and what
/// to check — never a key, a signature or a URL (the server's message is left out: some
/// servers put the string they signed in it).
struct S3Refusal {
    let source: String
    let bucket: String
    let status: Int
    let failure: S3AnswerParser.Failure?

    var error: LoaderError {
        let code = failure?.code ?? ""
        let says: String
        switch code {
        case "NoSuchKey": return .notFound
        case "" where status == 404: return .notFound
        case "": return status == 401 || status == 403 ? .refused(source: source, status: status) : LoaderError(status: status)
        case "SignatureDoesNotMatch":
            says = "the server rejected the request's signature (SignatureDoesNotMatch): check secret_access_key"
        case "InvalidAccessKeyId":
            says = "the server does not know the access key (InvalidAccessKeyId): check access_key_id"
        case "NoSuchBucket":
            says = "there is no bucket '\(bucket)' (NoSuchBucket): check bucket and endpoint"
        case "AccessDenied", "AllAccessDisabled":
            says = "access to bucket '\(bucket)' denied (\(code)): the keys may not list or read it"
        case "ExpiredToken", "InvalidToken", "TokenRefreshRequired":
            says = "the session token is expired or invalid (\(code)): renew session_token"
        case "RequestTimeTooSkewed":
            says = "this machine's clock is too far from the server's (RequestTimeTooSkewed)"
        case "PermanentRedirect", "AuthorizationHeaderMalformed":
            says = "the bucket is in another region or at another endpoint (\(code)): check region and endpoint"
        default:
            says = "the server refused the request (HTTP \(status), \(code.prefix(64)))"
        }
        return .configuration("\(source): \(says)")
    }
}

extension LoaderError {
    /// A status alone, without a source to name (`LoaderError(status:source:)` for 401/403).
    fileprivate init(status: Int) {
        self = status == 404 || status == 410 ? .notFound : .http(status: status)
    }
}

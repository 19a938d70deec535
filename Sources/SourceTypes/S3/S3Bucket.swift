import Config
import FoundationEssentials
import Loader
import Logging
import Model
import NIOCore
import NIOHTTP1
import Parsers
import S3Answers

/// A bucket at work: signed requests through the source's transport, and the two answers a
/// request is sent again after — once each — because they correct how it was signed, not what
/// it asked: another region (a 301 or `AuthorizationHeaderMalformed` naming it, or
/// `x-amz-bucket-region`) and a clock that is off (`RequestTimeTooSkewed`). Every other refusal
/// is one error naming the source (`S3Refusal`).
final class S3Bucket: Sendable {
    let signing: S3Signing
    let transport: HTTPTransport
    private let logger = Logger(label: "cloudplayerd.loader")
    /// S3 refuses a request signed more than 15 minutes away from its clock.
    private static let allowedSkew: TimeInterval = 15 * 60

    init(source: S3Source, readTimeout: Double, proxy: ProxyRules) throws {
        let signing = try S3Signing(source: source)
        self.signing = signing
        transport = try HTTPTransport(name: source.name, tlsCAFile: source.tlsCAFile, readTimeout: readTimeout, proxy: proxy) { url, method in
            try await signing.headers(for: url, method: method.rawValue)
        }
    }

    var source: String { signing.source }

    /// Sends a request for an object (`key`) or the bucket itself (nil). An answer that is data
    /// (2xx, 304, 416) or a moment's trouble (5xx, 408, 429: the loader retries those) is
    /// returned; a refusal is thrown.
    nonisolated(nonsending) func send(_ method: HTTPMethod, key: String?, query: [(String, String)] = [],
                                      headers: HTTPHeaders = [:]) async throws -> HTTPAnswer {
        var movedRegion = false, setClock = false
        while true {
            // What this request is signed for: another request may correct the region meanwhile.
            let signedRegion = signing.region
            let response = try await transport.send(signing.url(key: key, query: query), method: method, headers: headers)
            let status = response.status.code
            if status < 300 || status == 304 || status == 416 || status >= 500 || status == 408 || status == 429 { return response }
            var failure: S3AnswerParser.Failure?
            if method != .HEAD, let body = try? await response.body.collect(upTo: 64 << 10) {
                failure = S3AnswerParser.failure(Data(body.readableBytesView))
            }
            if !movedRegion, let region = Self.region(in: response, failure), region != signedRegion {
                movedRegion = true
                if signing.move(to: region) {
                    logger.notice("the bucket is in another region; signing for it from now on",
                                  metadata: ["source": "\(source)", "region": "\(region)"])
                }
                continue
            }
            if !setClock, let serverTime = skewedTime(in: response, failure) {
                setClock = true
                signing.adjustClock(toServerTime: serverTime)
                logger.notice("this machine's clock is off from the server's; signing with the server's time",
                              metadata: ["source": "\(source)", "seconds": "\(Int(serverTime.timeIntervalSinceNow))"])
                continue
            }
            throw S3Refusal(source: source, bucket: signing.bucket, status: Int(status), failure: failure).error
        }
    }

    /// The error for a status that is not an answer (a 5xx after the loader's retries).
    func failure(_ status: HTTPResponseStatus) -> LoaderError {
        S3Refusal(source: source, bucket: signing.bucket, status: Int(status.code), failure: nil).error
    }

    /// The region an answer says the bucket is in, if it says so — and it looks like a region: on
    /// AWS's endpoints it becomes part of a host name.
    private static func region(in response: HTTPAnswer, _ failure: S3AnswerParser.Failure?) -> String? {
        var named = response.headers.first(name: "x-amz-bucket-region")
        if named == nil, let failure,
           ["AuthorizationHeaderMalformed", "PermanentRedirect", "IllegalLocationConstraintException"].contains(failure.code) {
            named = failure.region
        }
        guard let region = named, (1...40).contains(region.count),
              region.allSatisfy({ $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "-") }) else { return nil }
        return region
    }

    /// The server's time, when the answer refuses a request for a clock that is off: its
    /// `RequestTimeTooSkewed` (with `ServerTime`, else the `Date` header), or a bodiless 403 to a
    /// HEAD whose `Date` is more than 15 minutes from our signing clock.
    private func skewedTime(in response: HTTPAnswer, _ failure: S3AnswerParser.Failure?) -> Date? {
        let date = response.headers.first(name: "Date").flatMap(Validator.date)
        if failure?.code == "RequestTimeTooSkewed" { return failure?.serverTime ?? date }
        guard failure == nil, response.status == .forbidden, let date, signing.skew(from: date) > Self.allowedSkew else { return nil }
        return date
    }
}

import Base
import Config
import FoundationEssentials
import Loader
import Model
import NIOCore
import NIOHTTP1
import Parsers
import YandexDiskAnswers

/// Speaks the Yandex.Disk REST API for one source: every call with `Authorization: OAuth TOKEN`,
/// a 401 answered once with a renewed token and the call sent again, 429/503 waited out as
/// `Retry-After` asks (a few times), every other refusal one message naming the source and the
/// file. The token goes in a header, set by the transport for the API's origin and for the
/// download hosts the API itself sent us to (its docs ask for the token there too) — never for a
/// host a redirect names, never in a URL.
final class YandexDiskClient: Sendable {
    /// The largest answer read: a page of 1000 items is well below.
    static let largestAnswer = 16 << 20

    let source: YandexDiskSource
    let session: TokenSession
    /// Origins download links were on: the token goes there too.
    private let downloadHosts: Locked<Set<URLOrigin>>

    var name: String { source.name }
    var transport: HTTPTransport { session.transport }

    init(source: YandexDiskSource, readTimeout: Double, proxy: ProxyRules) throws {
        self.source = source
        let downloadHosts = Locked<Set<URLOrigin>>([])
        self.downloadHosts = downloadHosts
        let api = URLOrigin(source.account.apiURL)
        session = try source.account.session(readTimeout: readTimeout, proxy: proxy, scheme: "OAuth") { url in
            guard let origin = URLOrigin(url) else { return false }
            return origin == api || downloadHosts.withLock { $0.contains(origin) }
        }
    }

    // MARK: Calls

    /// `GET /v1/disk/resources`: a file's or folder's description, one page of a folder's items.
    nonisolated(nonsending) func resource(_ path: String, offset: Int = 0, limit: Int? = nil) async throws -> YandexDiskResource {
        var query = [("path", path)]
        if let limit { query += [("limit", String(limit)), ("offset", String(offset)), ("sort", "name")] }
        let bytes = try await call("v1/disk/resources", query, about: path)
        do {
            return try YandexDiskAnswerParser.resource(bytes)
        } catch {
            throw LoaderError.service(source: name, reason: "\(path): the API answered JSON that is not a resource as documented")
        }
    }

    /// `GET /v1/disk/resources/download`: a short-lived link to a file's bytes.
    nonisolated(nonsending) func downloadLink(_ path: String) async throws -> URL {
        let bytes = try await call("v1/disk/resources/download", [("path", path)], about: path)
        let link: YandexDiskLink
        do {
            link = try YandexDiskAnswerParser.link(bytes)
        } catch {
            throw LoaderError.service(source: name, reason: "\(path): the API answered JSON that is not a download link as documented")
        }
        guard let url = URL(string: link.href), let origin = URLOrigin(url) else {
            throw LoaderError.service(source: name, reason: "\(path): the API gave a download link that is no URL")
        }
        downloadHosts.withLock { _ = $0.insert(origin) }
        return url
    }

    /// Sends a GET with the current token (to the API, or to a download host it named); a 401 is
    /// answered once with a renewed token.
    nonisolated(nonsending) func send(_ url: URL, headers: HTTPHeaders = [:]) async throws -> HTTPAnswer {
        try await session.send(url, headers: headers)
    }

    /// An API call's answer; `file`: what it is about, for messages.
    private nonisolated(nonsending) func call(_ endpoint: String, _ query: [(String, String)], about file: String) async throws -> [UInt8] {
        let answer = try await session.call(api(endpoint, query), headers: ["Accept": "application/json"], largest: Self.largestAnswer, about: file)
        guard answer.status == .ok else { throw failure(answer.status, answer.body, about: file) }
        return answer.body
    }

    // MARK: Errors and URLs

    /// A refusal as one message naming the source and the file, with the API's own words when
    /// they repeat no token.
    func failure(_ status: HTTPResponseStatus, _ body: [UInt8], about file: String) -> LoaderError {
        let fault = YandexDiskAnswerParser.fault(body)
        return session.refusal(status, code: fault?.error, words: fault?.description ?? fault?.message, about: file, missing: "not on the disk")
    }

    private func api(_ endpoint: String, _ query: [(String, String)]) -> URL {
        var base = source.account.apiURL.absoluteString
        if !base.hasSuffix("/") { base += "/" }
        return URL(string: base + endpoint + "?" + FormEncoding.query(query)) ?? source.account.apiURL
    }
}

import Config
import FoundationEssentials
import Loader
import Model
import NIOHTTP1
import OneDriveAnswers
import Parsers

/// Speaks Microsoft Graph for one source, through the shared `TokenSession`: every call with
/// `Authorization: Bearer TOKEN` to Graph's origin and nowhere else — not to the pre-authenticated
/// download URLs `/content` redirects to, which must be fetched without it — a 401 answered once
/// with a renewed token, 429/503 waited out as `Retry-After` asks, every other refusal one message
/// naming the source and the file. https://learn.microsoft.com/graph/throttling
final class OneDriveClient: Sendable {
    let source: OneDriveSource
    /// The largest answer read: a page of a thousand items is well below.
    static let largestAnswer = 16 << 20

    let session: TokenSession
    let origin: URLOrigin?

    var name: String { source.name }

    init(source: OneDriveSource, readTimeout: Double, proxy: ProxyRules) throws {
        self.source = source
        let origin = URLOrigin(source.account.apiURL)
        self.origin = origin
        session = try source.account.session(readTimeout: readTimeout, proxy: proxy, scheme: "Bearer") { URLOrigin($0) == origin }
    }

    /// `GET /me/drive/root:/PATH`: a file's or folder's driveItem.
    /// https://learn.microsoft.com/graph/api/driveitem-get
    nonisolated(nonsending) func item(_ key: String) async throws -> OneDriveItem {
        let path = OneDrivePath.path(ofKey: key)
        let bytes = try await call(url(OneDrivePath.address(ofKey: key)), about: path)
        do {
            return try OneDriveAnswerParser.item(bytes)
        } catch {
            throw LoaderError.service(source: name, reason: "\(path): Graph answered JSON that is not a driveItem as documented")
        }
    }

    /// A page of a folder's children: the first (`GET /me/drive/root:/PATH:/children?$top=N`), or
    /// the one a previous page's `@odata.nextLink` names (on Graph's origin only: the token goes
    /// nowhere else). https://learn.microsoft.com/graph/api/driveitem-list-children
    nonisolated(nonsending) func children(_ key: String, next: String? = nil) async throws -> OneDrivePage {
        let path = OneDrivePath.path(ofKey: key)
        let target: URL
        if let next {
            guard let link = URL(string: next), URLOrigin(link) == origin else {
                throw LoaderError.service(source: name, reason: "\(path): Graph named a next page that is not on its own address")
            }
            target = link
        } else {
            target = url(OneDrivePath.address(ofKey: key, then: "/children"), query: [("$top", String(source.account.pageSize))])
        }
        let bytes = try await call(target, about: path)
        do {
            return try OneDriveAnswerParser.page(bytes)
        } catch {
            throw LoaderError.service(source: name, reason: "\(path): Graph answered JSON that is not a page of children as documented")
        }
    }

    /// `GET /me/drive/items/ID/content` with `headers` (Range): Graph answers 302 to a
    /// pre-authenticated URL on another host, which the transport follows without the token.
    /// Also says which URL answered, to be used again while it lasts.
    /// https://learn.microsoft.com/graph/api/driveitem-get-content
    nonisolated(nonsending) func content(of item: OneDriveItem, headers: HTTPHeaders) async throws -> (response: HTTPAnswer, url: URL) {
        let id = PercentEncoding.encoded(item.id, keeping: PercentEncoding.alphanumerics)
        return try await session.sendFollowing(url("me/drive/items/\(id)/content"), headers: headers)
    }

    /// A GET of a download URL: without the token, which goes to Graph's origin only.
    nonisolated(nonsending) func download(_ link: URL, headers: HTTPHeaders) async throws -> HTTPAnswer {
        try await session.send(link, headers: headers)
    }

    /// A refusal as one message naming the source and the file, with Graph's own code and words
    /// when they repeat no token. https://learn.microsoft.com/graph/errors
    func failure(_ status: HTTPResponseStatus, _ body: [UInt8], about file: String) -> LoaderError {
        let fault = OneDriveAnswerParser.fault(body)?.error
        return session.refusal(status, code: fault?.code, words: fault?.message, about: file, missing: "not in the drive")
    }

    private nonisolated(nonsending) func call(_ url: URL, about file: String) async throws -> [UInt8] {
        let answer = try await session.call(url, headers: ["Accept": "application/json"], largest: Self.largestAnswer, about: file)
        guard answer.status == .ok else { throw failure(answer.status, answer.body, about: file) }
        return answer.body
    }

    private func url(_ address: String, query: [(String, String)] = []) -> URL {
        var base = source.account.apiURL.absoluteString
        if !base.hasSuffix("/") { base += "/" }
        return URL(string: base + address + (query.isEmpty ? "" : "?" + FormEncoding.query(query))) ?? source.account.apiURL
    }
}

import BoxAnswers
import Config
import FoundationEssentials
import Loader
import Model
import NIOHTTP1
import Parsers

/// Speaks Box's API 2.0 for one source, through the shared `TokenSession`: every call with
/// `Authorization: Bearer TOKEN` to the API's origin and nowhere else — not to the download host
/// `/content` redirects to — a 401 answered once with a renewed token, 429 waited out as
/// `Retry-After` asks, every other refusal one message naming the source and the file. Paths are
/// turned into ids name by name (`CloudItemIDs`): Box finds items by id only.
/// https://developer.box.com/guides/api-calls/permissions-and-errors/rate-limits
final class BoxClient: Sendable {
    let source: BoxSource
    /// The largest answer read: a page of a thousand items is well below.
    static let largestAnswer = 16 << 20
    /// A folder of more pages than this is cut short and reported (an API that pages forever).
    static let mostPages = 10_000
    /// The fields asked for: with `fields`, Box answers an item's mini form plus these only.
    /// https://developer.box.com/reference/get-folders-id-items
    static let fields = "id,type,name,size,sha1,file_version,modified_at"

    let session: TokenSession
    let origin: URLOrigin?
    let ids: CloudItemIDs

    var name: String { source.name }

    init(source: BoxSource, readTimeout: Double, proxy: ProxyRules) throws {
        self.source = source
        let origin = URLOrigin(source.account.apiURL)
        self.origin = origin
        ids = CloudItemIDs(base: source.folderID ?? "0")
        session = try source.account.session(readTimeout: readTimeout, proxy: proxy, scheme: "Bearer") { URLOrigin($0) == origin }
    }

    /// Every item of the folder `folderID` (its path `path`, for messages), a page of `page_size`
    /// at a time, `next_marker` to the next; `complete` is false for a folder of more than
    /// `mostPages` pages, cut short. https://developer.box.com/guides/api-calls/pagination/marker-based
    nonisolated(nonsending) func items(of folderID: String, about path: String) async throws -> (items: [BoxItem], complete: Bool) {
        var items: [BoxItem] = []
        var marker: String?
        for _ in 0..<Self.mostPages {
            var query = [("fields", Self.fields), ("usemarker", "true"), ("limit", String(source.account.pageSize))]
            if let marker { query.append(("marker", marker)) }
            let answer = try await call(url("folders/\(PercentEncoding.encoded(folderID, keeping: PercentEncoding.alphanumerics))/items", query: query),
                                        about: path)
            guard answer.status == .ok else { throw failure(answer.status, answer.body, about: path) }
            let page: BoxItemPage
            do {
                page = try BoxAnswerParser.page(answer.body)
            } catch {
                throw LoaderError.service(source: name, reason: "\(path): Box answered JSON that is not a page of folder items as documented")
            }
            items += page.entries
            guard let next = page.nextMarker, !next.isEmpty else { return (items, true) }
            marker = next
        }
        return (items, false)
    }

    /// The file of key `key`: its id looked up (if not known) and `GET /files/ID` asked. A known id
    /// that is not found any more is forgotten and looked up again, once.
    /// https://developer.box.com/reference/get-files-id
    nonisolated(nonsending) func describe(_ key: String) async throws -> BoxItem {
        let path = CloudPath.path(ofKey: key)
        let known = ids.id(of: key) != nil
        if let file = try await file(try await id(of: key), about: path) { return file }
        guard known else { throw gone(path) }
        ids.forget(key)
        guard let file = try await file(try await id(of: key), about: path) else { throw gone(path) }
        return file
    }

    /// `GET /files/ID/content?version=V` with `headers` (Range): Box answers 302 to a download URL
    /// on another host (dl.boxcloud.com), which the transport follows without the token; the
    /// version named, the bytes are that version's even if the file changes meanwhile. Also says
    /// which URL answered, to be used again while it lasts.
    /// https://developer.box.com/reference/get-files-id-content, https://developer.box.com/guides/downloads/file
    nonisolated(nonsending) func content(of file: BoxItem, headers: HTTPHeaders) async throws -> (response: HTTPAnswer, url: URL) {
        let id = PercentEncoding.encoded(file.id, keeping: PercentEncoding.alphanumerics)
        return try await session.sendFollowing(url("files/\(id)/content", query: file.fileVersion.map { [("version", $0.id)] } ?? []), headers: headers)
    }

    /// A GET of a download URL: without the token, which goes to the API's origin only.
    nonisolated(nonsending) func download(_ link: URL, headers: HTTPHeaders) async throws -> HTTPAnswer {
        try await session.send(link, headers: headers)
    }

    /// A refusal as one message naming the source and the file, with Box's own code and words
    /// when they repeat no token. https://developer.box.com/guides/api-calls/permissions-and-errors/common-errors
    func failure(_ status: HTTPResponseStatus, _ body: [UInt8], about file: String) -> LoaderError {
        let fault = BoxAnswerParser.fault(body)
        return session.refusal(status, code: fault?.code, words: fault?.message, about: file, missing: "not in Box")
    }

    // MARK: Paths to ids

    /// The id of the item at `key`: known, or looked up name by name from the folder scanned
    /// from, each folder on the way listed (and all its items' ids kept).
    nonisolated(nonsending) func id(of key: String) async throws -> String {
        if let id = ids.id(of: key) { return id }
        var folder = ""
        var folderID = ids.id(of: "") ?? source.folderID ?? "0"
        for name in key.split(separator: "/").map(String.init) {
            let child = CloudPath.key(of: name, in: folder)
            if ids.id(of: child) == nil {
                for item in try await items(of: folderID, about: CloudPath.path(ofKey: child)).items where CloudPath.isNameable(item.name) {
                    ids.keep(item.id, for: CloudPath.key(of: item.name, in: folder))
                }
            }
            guard let id = ids.id(of: child) else {
                throw LoaderError.service(source: self.name, reason: "\(CloudPath.path(ofKey: child)): not in Box (no item of that name in \(CloudPath.path(ofKey: folder)))")
            }
            (folder, folderID) = (child, id)
        }
        return folderID
    }

    // MARK: Calls

    /// `GET /files/ID`; nil when Box answers 404 (the file is gone or was replaced).
    private nonisolated(nonsending) func file(_ id: String, about path: String) async throws -> BoxItem? {
        let answer = try await call(url("files/" + PercentEncoding.encoded(id, keeping: PercentEncoding.alphanumerics), query: [("fields", Self.fields)]),
                                    about: path)
        if answer.status == .notFound { return nil }
        guard answer.status == .ok else { throw failure(answer.status, answer.body, about: path) }
        do {
            return try BoxAnswerParser.item(answer.body)
        } catch {
            throw LoaderError.service(source: name, reason: "\(path): Box answered JSON that is not a file as documented")
        }
    }

    private func gone(_ path: String) -> LoaderError {
        .service(source: name, reason: "\(path): not in Box (HTTP 404 not_found)")
    }

    /// An API call's answer, 429 waited out as `Retry-After` asks.
    private nonisolated(nonsending) func call(_ url: URL, about file: String) async throws -> TokenSession.Answer {
        try await session.call(url, headers: ["Accept": "application/json"], largest: Self.largestAnswer, about: file)
    }

    private func url(_ address: String, query: [(String, String)] = []) -> URL {
        var base = source.account.apiURL.absoluteString
        if !base.hasSuffix("/") { base += "/" }
        return URL(string: base + address + (query.isEmpty ? "" : "?" + FormEncoding.query(query))) ?? source.account.apiURL
    }
}

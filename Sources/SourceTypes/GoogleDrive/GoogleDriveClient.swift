import Base
import Config
import FoundationEssentials
import GoogleDriveAnswers
import Loader
import Model
import NIOHTTP1
import Parsers

/// Speaks Drive API v3 for one source, through the shared `TokenSession`: every call with
/// `Authorization: Bearer TOKEN` to the API's origin and nowhere else (never a token in a query
/// string), a 401 answered once with a renewed token, 429/503 and a 403 whose reason is
/// `userRateLimitExceeded` or `rateLimitExceeded` backed off and retried, every other refusal
/// one message naming the source and the file. Paths are turned into ids name by name
/// (`CloudItemIDs`). https://developers.google.com/drive/api/guides/handle-errors
final class GoogleDriveClient: Sendable {
    let source: GoogleDriveSource
    /// The largest answer read: a page of a thousand files is well below.
    static let largestAnswer = 16 << 20
    /// A folder of more pages than this is cut short and reported (an API that pages forever).
    static let mostPages = 10_000
    /// The fields asked of a file: what a library needs, no more (Drive answers only the fields asked for).
    static let fileFields = "id,name,mimeType,size,md5Checksum,headRevisionId,modifiedTime,parents,shortcutDetails,capabilities(canReadRevisions)"

    let session: TokenSession
    let origin: URLOrigin?
    let ids: CloudItemIDs
    /// My Drive's own id, once asked for (`root` is only its alias).
    private let driveRoot = Locked<String?>(nil)

    var name: String { source.name }

    init(source: GoogleDriveSource, readTimeout: Double, proxy: ProxyRules) throws {
        self.source = source
        let origin = URLOrigin(source.account.apiURL)
        self.origin = origin
        ids = CloudItemIDs(base: source.folderID ?? "root")
        session = try source.account.session(readTimeout: readTimeout, proxy: proxy, scheme: "Bearer") { URLOrigin($0) == origin }
    }

    // MARK: Calls

    /// What the folder `folder` holds and is not in the trash (only those named `named`, if
    /// given), a page of `pageSize` at a time, `nextPageToken` to the next; `complete` is false for
    /// a folder of more than `mostPages` pages, cut short.
    nonisolated(nonsending) func list(_ folder: String, named: String? = nil, about path: String) async throws -> (files: [GoogleDriveFile], complete: Bool) {
        var files: [GoogleDriveFile] = []
        var next: String?
        for _ in 0..<Self.mostPages {
            let listed = try await page(folder, named: named, pageToken: next, about: path)
            files += listed.files
            guard let token = listed.nextPageToken else { return (files, true) }
            next = token
        }
        return (files, false)
    }

    /// One page of `files.list`, from `pageToken` on.
    /// https://developers.google.com/drive/api/reference/rest/v3/files/list
    private nonisolated(nonsending) func page(_ folder: String, named: String?, pageToken: String?, about path: String) async throws -> GoogleDriveFileList {
        var query = "\(GoogleDrivePath.literal(folder)) in parents and trashed = false"
        if let named { query += " and name = \(GoogleDrivePath.literal(named))" }
        // Items of shared drives too (a folder_id may name a folder of one).
        var parameters = [("q", query), ("fields", "nextPageToken,files(\(Self.fileFields))"), ("pageSize", String(source.account.pageSize)),
                          ("supportsAllDrives", "true"), ("includeItemsFromAllDrives", "true")]
        if let pageToken { parameters.append(("pageToken", pageToken)) }
        let bytes = try await call(url("files", query: parameters), about: path)
        do {
            return try GoogleDriveAnswerParser.list(bytes)
        } catch {
            throw LoaderError.service(source: name, reason: "\(path): Drive answered JSON that is not a file list as documented")
        }
    }

    /// `files.get` of the file `id`: its metadata; a 404 (no such file) is `.missing`, with Drive's words.
    /// https://developers.google.com/drive/api/reference/rest/v3/files/get
    nonisolated(nonsending) func file(_ id: String, about path: String) async throws -> Described {
        let answer = try await answer(url("files/" + FormEncoding.encode(id), query: [("fields", Self.fileFields), ("supportsAllDrives", "true")]),
                                      about: path)
        if answer.status == .notFound { return .missing(failure(answer.status, answer.body, about: path)) }
        guard answer.status == .ok else { throw failure(answer.status, answer.body, about: path) }
        do {
            return .found(try GoogleDriveAnswerParser.file(answer.body))
        } catch {
            throw LoaderError.service(source: name, reason: "\(path): Drive answered JSON that is not a file resource as documented")
        }
    }

    enum Described {
        case found(GoogleDriveFile)
        case missing(LoaderError)
    }

    /// The file at `key`, described: its id looked up (if not known) and its metadata asked for.
    /// A known id that is not found any more (the file was replaced) is looked up again, once.
    nonisolated(nonsending) func describe(_ key: String) async throws -> GoogleDriveFile {
        let path = GoogleDrivePath.path(ofKey: key)
        let known = ids.id(of: key) != nil
        switch try await file(try await id(of: key), about: path) {
        case .found(let file): return file
        case .missing(let error) where !known: throw error
        case .missing:
            ids.forget(key)
            switch try await file(try await id(of: key), about: path) {
            case .found(let file): return file
            case .missing(let error): throw error
            }
        }
    }

    /// The `alt=media` address of the file `id`'s bytes: of its revision `revision` when Drive
    /// named one — `files/ID?alt=media` serves whatever the file holds at the moment, so bytes read
    /// after a change would carry the old version's tag; a revision's bytes never change.
    /// https://developers.google.com/drive/api/guides/manage-downloads,
    /// https://developers.google.com/drive/api/reference/rest/v3/revisions/get
    func mediaURL(_ id: String, revision: String?) -> URL {
        let file = "files/" + FormEncoding.encode(id)
        return url(revision.map { file + "/revisions/" + FormEncoding.encode($0) } ?? file, query: [("alt", "media"), ("supportsAllDrives", "true")])
    }

    /// A GET of the file's bytes with the loader's `Range`; a 403 rate limit backed off and tried
    /// again, as the docs ask, another 403 thrown as the refusal it is (429 and 503 are the
    /// loader's to wait out). https://developers.google.com/drive/api/guides/limits
    nonisolated(nonsending) func media(_ url: URL, headers: HTTPHeaders, about path: String) async throws -> HTTPAnswer {
        switch try await session.send(url, headers: headers, waitingOut: TokenSession.Busy(statuses: [], inWords: Self.rateLimit),
                                      largest: Self.largestAnswer, about: path) {
        case .streaming(let response): return response
        case .read(let refusal): throw failure(refusal.status, refusal.body, about: path)
        }
    }

    /// Drive's 403 that is a rate limit (`userRateLimitExceeded`, `rateLimitExceeded`), not a refusal.
    static let rateLimit = TokenSession.Busy.Words(status: 403) { GoogleDriveAnswerParser.fault($0)?.isRateLimit == true }

    // MARK: Paths to ids

    /// The id of the file or folder at `key`: known, or looked up name by name from the folder
    /// scanned from. A name that is not there, or that two items share, is a clear error naming
    /// the path; a shortcut on the way is followed to its target.
    nonisolated(nonsending) func id(of key: String) async throws -> String {
        if let id = ids.id(of: key) { return id }
        var folder = ""
        var folderID = ids.id(of: "") ?? source.folderID ?? "root"
        for name in key.split(separator: "/").map(String.init) {
            let child = GoogleDrivePath.key(of: name, in: folder)
            if let id = ids.id(of: child) {
                (folder, folderID) = (child, id)
                continue
            }
            let id = try await lookUp(name, in: folderID, folder: folder)
            ids.keep(id, for: child)
            (folder, folderID) = (child, id)
        }
        return folderID
    }

    /// Whether the folder `id` is the folder at `rootKey` or inside it — its parents followed up
    /// to a folder that has none (a drive's root): a shortcut to such a folder would list it a
    /// second time. https://developers.google.com/drive/api/guides/folder
    nonisolated(nonsending) func isInside(_ id: String, rootKey: String) async throws -> Bool {
        var top = try await self.id(of: rootKey)
        if top == "root" { top = try await myDriveID() }
        var current = id
        for _ in 0..<64 {
            if current == top { return true }
            // A parent Drive does not show (shared with the user, its folder not: 404) is outside;
            // an error on the way (the network, a rate limit) is the caller's, not an answer.
            guard case .found(let file) = try await file(current, about: GoogleDrivePath.path(ofKey: rootKey)),
                  let parent = file.parents?.first else { return false }
            current = parent
        }
        return false
    }

    /// My Drive's own id (`files/root`), once asked for.
    private nonisolated(nonsending) func myDriveID() async throws -> String {
        if let known = driveRoot.withLock({ $0 }) { return known }
        guard case .found(let root) = try await file("root", about: "/") else { return "root" }
        driveRoot.withLock { $0 = root.id }
        return root.id
    }

    /// The id of the one item named `name` in the folder `folderID` (of key `folder`).
    private nonisolated(nonsending) func lookUp(_ name: String, in folderID: String, folder: String) async throws -> String {
        let path = GoogleDrivePath.path(ofKey: GoogleDrivePath.key(of: name, in: folder))
        // Docs files are not in the library: one of the same name does not make a path ambiguous.
        let found = try await list(folderID, named: name, about: path).files.filter { $0.name == name && !$0.isGoogleApp }
        guard let item = found.first else {
            throw LoaderError.service(source: self.name, reason: "\(path): not in the drive (no item of that name in \(GoogleDrivePath.path(ofKey: folder)))")
        }
        guard found.count == 1 else {
            let kinds = found.map { "\($0.isFolder ? "folder" : "file") \($0.id)" }.joined(separator: ", ")
            throw LoaderError.service(source: self.name, reason: "\(path): \(found.count) items of that name in \(GoogleDrivePath.path(ofKey: folder)) "
                                      + "(\(kinds)); a path cannot tell them apart: rename one in Drive, or give folder_id")
        }
        if item.isShortcut, let target = item.shortcutDetails?.targetId { return target }
        return item.id
    }

    // MARK: Errors and URLs

    /// A refusal as one message naming the source and the file, with Drive's own reason and words
    /// when they repeat no token.
    func failure(_ status: HTTPResponseStatus, _ body: [UInt8], about file: String) -> LoaderError {
        let fault = GoogleDriveAnswerParser.fault(body)
        return session.refusal(status, code: fault?.reason, words: fault?.error.message, about: file, missing: "not in the drive")
    }

    /// An API call's 200 body; anything else thrown as the refusal it is.
    private nonisolated(nonsending) func call(_ url: URL, about file: String) async throws -> [UInt8] {
        let answer = try await answer(url, about: file)
        guard answer.status == .ok else { throw failure(answer.status, answer.body, about: file) }
        return answer.body
    }

    /// An API call's answer, rate limits (429, 503, 403 `userRateLimitExceeded`) waited out.
    private nonisolated(nonsending) func answer(_ url: URL, about file: String) async throws -> TokenSession.Answer {
        try await session.call(url, headers: ["Accept": "application/json"], largest: Self.largestAnswer, about: file, busyInWords: Self.rateLimit)
    }

    private func url(_ address: String, query: [(String, String)] = []) -> URL {
        var base = source.account.apiURL.absoluteString
        if !base.hasSuffix("/") { base += "/" }
        return URL(string: base + address + (query.isEmpty ? "" : "?" + FormEncoding.query(query))) ?? source.account.apiURL
    }
}

import Config
import DropboxAnswers
import FoundationEssentials
import Loader
import Model
import NIOCore
import NIOHTTP1
import Parsers

/// Speaks Dropbox API v2 for one source: RPC calls (`POST /2/…` with a JSON body) on the API
/// host, downloads on the content host with the argument in `Dropbox-API-Arg`; every request with
/// `Authorization: Bearer TOKEN` — to those two origins only — through the shared `TokenSession`
/// (a 401 renews the token once, 429 waits as `Retry-After` asks). Every refusal is one message
/// naming the source and the file, in the API's own `error_summary` words.
final class DropboxClient: Sendable {
    /// The largest answer read: a page of 2000 entries is well below.
    static let largestAnswer = 16 << 20

    let source: DropboxSource
    let session: TokenSession

    var name: String { source.name }

    init(source: DropboxSource, readTimeout: Double, proxy: ProxyRules) throws {
        self.source = source
        let hosts = Set([source.account.apiURL, source.contentURL].compactMap { URLOrigin($0) })
        session = try source.account.session(readTimeout: readTimeout, proxy: proxy, scheme: "Bearer") { url in
            URLOrigin(url).map { hosts.contains($0) } ?? false
        }
    }

    // MARK: Calls

    /// `files/list_folder`: the first page of a folder's entries (not recursive).
    nonisolated(nonsending) func listFolder(_ path: String) async throws -> DropboxListing {
        let bytes = try await rpc("files/list_folder", [("path", .string(path)), ("recursive", .bool(false)),
                                                        ("include_deleted", .bool(false)), ("limit", .int(source.account.pageSize))], about: path)
        return try listing(bytes, about: path)
    }

    /// `files/list_folder/continue`: the next page; a cursor Dropbox invalidated is `DropboxCursorReset`.
    nonisolated(nonsending) func listFolder(_ path: String, continuing cursor: String) async throws -> DropboxListing {
        let bytes = try await rpc("files/list_folder/continue", [("cursor", .string(cursor))], about: path)
        return try listing(bytes, about: path)
    }

    /// `files/get_metadata`: a file's size and version.
    nonisolated(nonsending) func metadata(_ path: String) async throws -> DropboxEntry {
        let bytes = try await rpc("files/get_metadata", [("path", .string(path))], about: path)
        do {
            return try DropboxAnswerParser.entry(bytes)
        } catch {
            throw LoaderError.service(source: name, reason: "\(path): the API answered JSON that is not a file's metadata as documented")
        }
    }

    /// `files/download` on the content host, with the loader's `Range` (the answer as it comes).
    nonisolated(nonsending) func download(_ path: String, headers: HTTPHeaders) async throws -> HTTPAnswer {
        var headers = headers
        headers.replaceOrAdd(name: "Dropbox-API-Arg", value: DropboxArgument.json([("path", .string(path))]))
        // No body (an empty one, stated as such): the argument is the header.
        return try await session.send(endpoint(source.contentURL, "files/download"), method: .POST, headers: headers, body: "")
    }

    private nonisolated(nonsending) func rpc(_ name: String, _ fields: [(String, DropboxArgument.Value)], about file: String) async throws -> [UInt8] {
        let answer = try await session.call(endpoint(source.account.apiURL, name), method: .POST,
                                            headers: ["Content-Type": "application/json", "Accept": "application/json"],
                                            body: DropboxArgument.json(fields), largest: Self.largestAnswer, about: file)
        guard answer.status == .ok else {
            if answer.status.code == 409, DropboxAnswerParser.fault(answer.body)?.tags.hasPrefix("reset") == true { throw DropboxCursorReset() }
            throw failure(answer.status, answer.body, about: file)
        }
        return answer.body
    }

    private func listing(_ bytes: [UInt8], about path: String) throws -> DropboxListing {
        do {
            return try DropboxAnswerParser.listing(bytes)
        } catch {
            throw LoaderError.service(source: name, reason: "\(path.isEmpty ? "/" : path): the API answered JSON that is not a folder listing as documented")
        }
    }

    // MARK: Errors and URLs

    /// A refusal as one message naming the source and the file, with the API's `error_summary`
    /// (a 400's plain-text words) when they repeat no token.
    func failure(_ status: HTTPResponseStatus, _ body: [UInt8], about path: String) -> LoaderError {
        let file = path.isEmpty ? "/" : path
        let tags = DropboxAnswerParser.fault(body)?.tags
        let words = session.withoutToken(tags ?? (status.code == 400 ? String(decoding: body.prefix(200), as: UTF8.self) : ""))
        let said = words.isEmpty ? "" : " \(words)"
        let reason = switch status.code {
        case 401: "the token was refused (HTTP 401\(said)); give a valid token, or run `cloudplayerctl login \(name)`"
        case 409 where tags?.hasPrefix("path/not_found") == true: "not in the Dropbox (HTTP 409\(said))"
        case 409: "the API refused (HTTP 409\(said))"
        case 403: "access refused (HTTP 403\(said))"
        case 429: "the API is busy (HTTP 429\(said))"
        default: "the API answered HTTP \(status.code)\(said)"
        }
        return .service(source: name, reason: "\(file): \(reason)")
    }

    private func endpoint(_ host: URL, _ name: String) -> URL {
        var base = host.absoluteString
        if !base.hasSuffix("/") { base += "/" }
        return URL(string: base + "2/" + name) ?? host
    }
}

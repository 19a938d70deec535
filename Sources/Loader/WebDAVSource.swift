import AsyncHTTPClient
import Foundation
import Model
import NIOCore
import NIOHTTP1
import Parsers

/// A WebDAV server (Nextcloud, ownCloud, Yandex.Disk, `rclone serve webdav`): HTTP plus
/// PROPFIND, which describes a file without a GET and lists folders one level at a time
/// (many servers refuse `Depth: infinity`).
package final class WebDAVSource: HTTPSource, @unchecked Sendable {
    static let propfindBody = """
        <?xml version="1.0" encoding="utf-8"?>
        <d:propfind xmlns:d="DAV:"><d:prop><d:resourcetype/><d:getcontentlength/><d:getetag/>\
        <d:getlastmodified/><d:getcontenttype/></d:prop></d:propfind>
        """
    /// Larger answers are refused: a folder listing is not megabytes of XML.
    static let largestAnswer = 32 << 20

    package override nonisolated(nonsending) func describe(_ url: URL) async throws -> ResourceInfo {
        guard let entry = try await propfind(url, depth: 0).first, let info = entry.info else {
            throw LoaderError.badResponse("PROPFIND did not describe a file")
        }
        return info
    }

    /// The folder's entries, one level deep, the folder itself left out.
    package nonisolated(nonsending) func list(_ folder: URL) async throws -> [DAVEntry] {
        let path = folder.path.hasSuffix("/") ? folder.path : folder.path + "/"
        return try await propfind(folder, depth: 1).filter {
            let href = URL(string: $0.href, relativeTo: folder)?.path ?? $0.href
            return href != path && href + "/" != path
        }
    }

    private nonisolated(nonsending) func propfind(_ url: URL, depth: Int) async throws -> [DAVEntry] {
        var headers = HTTPHeaders()
        headers.add(name: "Depth", value: String(depth))
        headers.add(name: "Content-Type", value: "application/xml; charset=utf-8")
        let response = try await send(url, method: .RAW(value: "PROPFIND"), headers: headers, body: Self.propfindBody)
        guard response.status.code == 207 else { throw failure(response.status) }
        let body: ByteBuffer
        do {
            body = try await response.body.collect(upTo: Self.largestAnswer)
        } catch {
            throw LoaderError.badResponse("a PROPFIND answer that is too large or broken off")
        }
        return try PropfindParser.parse(Data(body.readableBytesView))
    }
}

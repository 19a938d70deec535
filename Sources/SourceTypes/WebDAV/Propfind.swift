import FoundationEssentials
import Loader
import Model
import NIOCore
import NIOHTTP1
import Parsers
import WebDAVAnswers

/// A PROPFIND request: how WebDAV describes a file without a GET and lists a folder one level at a
/// time (many servers refuse `Depth: infinity`).
enum Propfind {
    static let body = """
        <?xml version="1.0" encoding="utf-8"?>
        <d:propfind xmlns:d="DAV:"><d:prop><d:resourcetype/><d:getcontentlength/><d:getetag/>\
        <d:getlastmodified/><d:getcontenttype/></d:prop></d:propfind>
        """
    /// Larger answers are refused: a folder listing is not megabytes of XML.
    static let largestAnswer = 32 << 20

    /// The entries PROPFIND gives for `url` at `depth` (0: itself; 1: and what it holds).
    /// Runs on the caller's executor (the loader's or the library's thread): the credentials it
    /// sends may be read from a file or a command on first use.
    nonisolated(nonsending) static func entries(of url: URL, depth: Int, through transport: HTTPTransport) async throws -> [DAVEntry] {
        var headers = HTTPHeaders()
        headers.add(name: "Depth", value: String(depth))
        headers.add(name: "Content-Type", value: "application/xml; charset=utf-8")
        let response = try await transport.send(url, method: .RAW(value: "PROPFIND"), headers: headers, body: body)
        guard response.status.code == 207 else { throw transport.failure(response.status) }
        let answer: ByteBuffer
        do {
            answer = try await response.body.collect(upTo: largestAnswer)
        } catch {
            throw LoaderError.badResponse("a PROPFIND answer that is too large or broken off")
        }
        return try PropfindParser.parse(Data(answer.readableBytesView))
    }
}

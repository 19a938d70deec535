import FoundationEssentials
import Loader
import Model
import NIOHTTP1

extension DownloadLinks {
    /// The bytes of `key` from an API that answers a file's content with a redirect to a download
    /// host (Graph's and Box's `/content`): a new link describes the file (`describe`: its version
    /// and length) and asks its `content`, whose redirect the transport follows without the token —
    /// that answer is the first read, and the URL it ended at is kept while it lasts (unless it is
    /// on the API's own origin, `apiOrigin`); later reads `fetch` it. A 404 is the provider's
    /// (`missing`); any other refusal of a fresh URL is the download host's, of its `linkName`,
    /// which no login would help.
    nonisolated(nonsending) func getRedirected<Item: Sendable>(
        _ key: String, headers: HTTPHeaders, source: String, path: String, apiOrigin: URLOrigin?, linkName: String,
        describe: nonisolated(nonsending) () async throws -> (info: ResourceInfo, item: Item),
        content: nonisolated(nonsending) (Item, HTTPHeaders) async throws -> (response: HTTPAnswer, url: URL),
        fetch: nonisolated(nonsending) (URL, HTTPHeaders) async throws -> HTTPAnswer,
        missing: (HTTPResponseStatus, [UInt8]) -> LoaderError,
        forgotten: () -> Void = {}
    ) async throws -> HTTPAnswer {
        try await get(key, headers: headers, source: source, path: path) { headers in
            let (info, item) = try await describe()
            let (response, url) = try await content(item, headers)
            return Made(link: Link(url: url, version: info.validator, length: info.length, made: .now), answer: response,
                        reusable: URLOrigin(url) != apiOrigin)
        } fetch: { url, headers in
            try await fetch(url, headers)
        } failure: { status, body in
            status.code == 404 ? missing(status, body)
                : .service(source: source, reason: "\(path): the download host refused a new \(linkName) (HTTP \(status.code))")
        } forgotten: {
            forgotten()
        }
    }
}

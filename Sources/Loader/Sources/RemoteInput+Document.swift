import Model
import NIOCore
import NIOHTTP1

extension RemoteInput {
    /// A small document whole — a feed, a playlist file — not through the sparse cache (it
    /// changes, and is read once); nil when the server says it still has `validator` (304).
    /// Larger than `limit` is an error.
    package nonisolated(nonsending) func document(_ location: TrackLocation, limit: Int,
                                                  ifNoneMatch validator: String?) async throws -> FetchedDocument? {
        var headers = HTTPHeaders()
        if let validator {
            headers.add(name: validator.hasPrefix("\"") || validator.hasPrefix("W/") ? "If-None-Match" : "If-Modified-Since", value: validator)
        }
        let response = try await get(location, headers: headers)
        if response.status == .notModified { return nil }
        guard response.status == .ok else { throw failure(response.status) }
        let body: ByteBuffer
        do {
            body = try await response.body.collect(upTo: limit)
        } catch {
            throw LoaderError.badResponse("a document larger than \(limit >> 20) MiB, or broken off")
        }
        let etag = response.headers.first(name: "ETag") ?? response.headers.first(name: "Last-Modified")
        return FetchedDocument(bytes: Array(body.readableBytesView), validator: etag, contentType: response.headers.first(name: "Content-Type"),
                               url: response.url)
    }

    /// The error for a status that is not an answer.
    package func failure(_ status: HTTPResponseStatus) -> LoaderError {
        LoaderError(status: status, source: name)
    }
}

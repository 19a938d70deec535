import Loader
import Model
import NIOCore
import NIOHTTP1

/// What a cloud source's download link answered, as the loader is to see it. The file's bytes are
/// stated with the file's own version (the provider's hash or content tag) as their tag, whatever
/// the download host says: a new link of the same file is the same version, a changed file a new
/// one. A web page (a sign-in page, a proxy's) or a refusal is one message naming the source and
/// the file, and none of its bytes reach the cache; 416, 429 and 5xx are left to the loader's rules.
enum DownloadAnswer {
    nonisolated(nonsending) static func stated(_ response: HTTPAnswer, version: String?, source: String, path: String,
                                               failure: (HTTPResponseStatus, [UInt8]) -> LoaderError) async throws -> HTTPAnswer {
        switch response.status.code {
        case 200, 206:
            if response.headers.first(name: "Content-Type")?.lowercased().hasPrefix("text/html") == true {
                _ = try? await response.body.collect(upTo: 1 << 16)
                throw LoaderError.service(source: source, reason: "\(path): the download link answered a web page, not the file")
            }
            var stated = response
            stated.headers.remove(name: "ETag")
            stated.headers.remove(name: "Last-Modified")
            if let version { stated.headers.replaceOrAdd(name: "ETag", value: version) }
            return stated
        case 401, 403, 404, 410:
            let body = (try? await response.body.collect(upTo: 1 << 16)).map { Array($0.readableBytesView) } ?? []
            throw failure(response.status, body)
        default:
            return response
        }
    }
}

import DropboxAnswers
import FoundationEssentials
import Loader
import Model
import NIOCore
import NIOHTTP1
import Parsers

/// A Dropbox's files, read with `files/download` on the content host: a POST whose argument (the
/// path) travels in `Dropbox-API-Arg`, with the loader's `Range`. Its answer's `Dropbox-API-Result`
/// describes the very version sent, and is stated to the loader as the answer's tag
/// (`content_hash`), so a changed file is a new version and its bytes are never mixed with the
/// old one's. `If-Range` is not sent (Dropbox knows no such tag); each 206 is checked against
/// the version instead.
struct DropboxInput: RemoteInput {
    let client: DropboxClient

    var name: String { client.name }

    nonisolated(nonsending) func describe(_ location: TrackLocation) async throws -> ResourceInfo {
        let path = DropboxPath.path(ofKey: try ownKey(of: location))
        let entry = try await client.metadata(path)
        guard entry.isFile, let size = entry.size else {
            throw LoaderError.service(source: name, reason: "\(path): the API describes no file here")
        }
        return ResourceInfo(length: size, validator: DropboxVersion.tag(of: entry))
    }

    nonisolated(nonsending) func get(_ location: TrackLocation, headers: HTTPHeaders) async throws -> HTTPAnswer {
        let path = DropboxPath.path(ofKey: try ownKey(of: location))
        var headers = headers
        headers.remove(name: "If-Range")
        let response = try await client.download(path, headers: headers)
        switch response.status.code {
        case 200, 206:
            guard let result = response.headers.first(name: "Dropbox-API-Result"),
                  let entry = try? DropboxAnswerParser.entry(Array(result.utf8)), entry.isFile else {
                _ = try? await response.body.collect(upTo: 1 << 16)
                throw LoaderError.service(source: name, reason: "\(path): the download's Dropbox-API-Result is not a file's metadata as documented")
            }
            var stated = response
            stated.headers.remove(name: "ETag")
            stated.headers.remove(name: "Last-Modified")
            if let version = DropboxVersion.tag(of: entry) { stated.headers.replaceOrAdd(name: "ETag", value: version) }
            return stated
        case 400, 401, 403, 404, 409:
            let body = (try? await response.body.collect(upTo: 1 << 16)).map { Array($0.readableBytesView) } ?? []
            throw client.failure(response.status, body, about: path)
        default:
            // 416, 429, 5xx: the loader's rules.
            return response
        }
    }

    func server(of location: TrackLocation) -> String {
        URLOrigin(client.source.contentURL)?.description ?? name
    }

    func shutdown() async {
        await client.session.transport.shutdown()
    }
}

import Loader
import Model
import NIOHTTP1

/// A bucket's objects, read with signed GETs (Range and If-Range as the loader asks) and
/// described with a signed HEAD: the ETag (S3's is strong) and Last-Modified are the version.
struct S3Input: RemoteInput {
    let bucket: S3Bucket

    var name: String { bucket.source }

    nonisolated(nonsending) func describe(_ location: TrackLocation) async throws -> ResourceInfo {
        let response = try await bucket.send(.HEAD, key: try ownKey(of: location))
        guard response.status == .ok else { throw bucket.failure(response.status) }
        guard let length = response.headers.first(name: "Content-Length").flatMap({ Int64($0) }) else {
            throw LoaderError.badResponse("the server did not say how long the object is")
        }
        let version = ResourceInfo.version(in: response.headers)
        return ResourceInfo(length: length, validator: version?.text, ifRange: version?.ifRange,
                            contentType: response.headers.first(name: "Content-Type"))
    }

    nonisolated(nonsending) func get(_ location: TrackLocation, headers: HTTPHeaders) async throws -> HTTPAnswer {
        try await bucket.send(.GET, key: try ownKey(of: location), headers: headers)
    }

    func server(of location: TrackLocation) -> String {
        bucket.signing.server
    }

    func shutdown() async {
        await bucket.transport.shutdown()
    }
}

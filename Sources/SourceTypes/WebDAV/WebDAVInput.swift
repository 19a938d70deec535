import Loader
import Model
import NIOHTTP1
import WebDAVAnswers

/// A WebDAV server's tracks: fetched as from any HTTP server, described with PROPFIND (which
/// gives length and ETag without a GET).
struct WebDAVInput: RemoteInput {
    let http: HTTPInput

    var name: String { http.name }

    nonisolated(nonsending) func describe(_ location: TrackLocation) async throws -> ResourceInfo {
        guard let entry = try await Propfind.entries(of: try HTTPInput.url(of: location), depth: 0, through: http.transport).first,
              let info = entry.info else {
            throw LoaderError.badResponse("PROPFIND did not describe a file")
        }
        return info
    }

    nonisolated(nonsending) func get(_ location: TrackLocation, headers: HTTPHeaders) async throws -> HTTPAnswer {
        try await http.get(location, headers: headers)
    }

    func server(of location: TrackLocation) -> String {
        http.server(of: location)
    }

    func shutdown() async {
        await http.shutdown()
    }
}

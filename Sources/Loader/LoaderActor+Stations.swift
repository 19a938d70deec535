import FoundationEssentials
import Model
import Parsers

/// Station lists (`.pls`, `.m3u`, `.xspf`, `.asx`) opened as a track: their entries are one
/// station's streams — the mirrors a radio directory lists — tried in order until one plays.
extension LoaderActor {
    /// How deep lists may name lists before one is refused (a list that names itself).
    static let listNesting = 3

    /// The names of station lists, by extension: the name decides before any request is made.
    private static let listExtensions: Set<String> = ["pls", "m3u", "m3u8", "xspf", "asx", "wax"]

    /// Whether a location's name says it is a station list.
    static func namesStationList(_ location: TrackLocation) -> Bool {
        let path = location.url?.path ?? URL(string: location.key)?.path ?? location.key
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return false }
        return listExtensions.contains(path[path.index(after: dot)...].lowercased())
    }

    /// Fetches a station list whole and plays the first of its entries that opens; nil when the
    /// document turns out to be no list (audio after all), to be played as a file.
    func openStationList(_ location: TrackLocation, depth: Int, waiting: (@Sendable (Bool) -> Void)?) async throws -> (any ByteSource)? {
        guard depth < Self.listNesting else { throw LoaderError.badResponse("station lists that name each other, \(Self.listNesting) deep") }
        let base = location.url ?? URL(string: location.key) ?? URL(fileURLWithPath: "/")
        let fetched: FetchedDocument?
        do {
            fetched = try await document(location, limit: StationList.maxBytes)
        } catch let error as LoaderError where error.isTransient {
            // An HLS stream on demand played before plays offline from its kept playlist.
            guard let kept = await keptPlaylists.kept(for: location.uri) else { throw error }
            return try await openHLS(location, playlist: FetchedDocument(bytes: kept, validator: nil), base: base, waiting: waiting)
        }
        guard let document = fetched else { return nil }
        let items: [PlaylistItem]
        switch try StationList.read(document.bytes, contentType: document.contentType, name: base.lastPathComponent, base: base) {
        case .stations(_, let entries): items = entries
        case .hls: return try await openHLS(location, playlist: document, base: document.url ?? base, waiting: waiting)
        case .webPage: throw LoaderError.badResponse("the station's address answers a web page, not audio")
        case .notAList: return nil
        }
        var last: (any Error)?
        // A `radio` source's station list names that source's streams; any other list's entries are
        // its links (`SourceSet.location(ofLink:in:)`: with credentials only on the list's own
        // source, and not on this machine or its network unless the list is a file of this machine).
        let radio: Bool
        if case .remote(let input)? = try? input(for: location), location.url == nil { radio = input.isLive(location) } else { radio = false }
        for url in items.flatMap(\.urls) {
            let entry = radio ? TrackLocation(source: location.source!, key: url.absoluteString) : sources.location(ofLink: url, in: location)
            do {
                return try await open(entry, starting: true, depth: depth + 1, waiting: waiting)
            } catch {
                if Task.isCancelled { throw LoaderError.cancelled }
                logger.notice("station list entry does not play; trying the next", metadata: ["reason": "\(error)"])
                last = error
            }
        }
        throw LoaderError.badResponse("no entry of the station list plays" + (last.map { " (the last: \($0))" } ?? ""))
    }
}

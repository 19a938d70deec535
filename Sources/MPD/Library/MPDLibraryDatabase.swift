import Base
import FoundationEssentials
import Library
import Loader
import Model
import Playback

/// The library as the MPD server browses it (`MPDLibrary`, and the database commands' queries):
/// the library database through `LibraryActor`, song URIs through `SongPaths` over the sources
/// as configured now (a reload may change them).
package struct MPDLibraryDatabase: MPDLibrary {
    package let library: LibraryActor
    package let loader: LoaderActor
    /// Starts a scan of the named sources in the background; false when one is running. The
    /// daemon hands in Manager1's (pinned playlists refreshed after, `ScanFinished` sent).
    package typealias Scanner = @Sendable ([String]) async -> Bool
    let scanner: Scanner
    /// `update`'s jobs: the last one's number, and the one under way.
    let jobs = Locked(UpdateJobs())
    /// Tracks read from the database at once: a page of `listallinfo`, `find`, `add DIR`.
    static let pageSize = 500
    /// Every song printed, for `find` and `search` (see `MPDSongCatalog`).
    package let catalog = MPDSongCatalog()

    package init(library: LibraryActor, loader: LoaderActor, scanner: Scanner? = nil) {
        self.library = library
        self.loader = loader
        self.scanner = scanner ?? { names in
            // Without the daemon's: the library's own scan.
            guard let first = names.first, await library.beginScanning(first) else { return false }
            Task { _ = await library.scan(names, loader: loader) }
            return true
        }
    }

    /// Kept while the sources map alike: its folders placed once serve the next commands too
    /// (placing one parses its URL: the bench library's 1,100 folders placed anew for each
    /// `search` and `listallinfo` were 6–7 % of their time, `perf record`).
    private let lastPaths = Locked<SongPaths?>(nil)

    package var paths: SongPaths {
        get async {
            let sources = await loader.sources
            return lastPaths.withLock { last in
                if let kept = last, kept.maps(like: sources) { return kept }
                let paths = SongPaths(sources: sources)
                last = paths
                return paths
            }
        }
    }

    package func songURI(of location: TrackLocation) -> String {
        // The sources as they were when the location was placed: its key is below its source's root.
        guard let source = location.source, !location.key.isEmpty else { return location.publicURI }
        return source + "/" + location.key.split(separator: "/", omittingEmptySubsequences: false)
            .map(TrackLocation.name(ofKeySegment:)).joined(separator: "/")
    }

    /// A song's location; nil for a folder (so that `add` takes everything under it) and for a
    /// path in no source.
    package func reference(forSongURI uri: String) async -> String? {
        guard let location = await paths.location(ofPath: uri) else { return nil }
        if (try? await library.track(at: TrackLocation(uri: location))) != nil { return location }
        if let folder = await paths.folderLocation(ofPath: uri), (try? await library.hasTracks(under: folder)) == true { return nil }
        return location
    }

    package func tracks(under folder: String) async throws -> [QueueItem]? {
        let paths = await paths
        let folders = folder.isEmpty || folder == "/" ? paths.sourceNames.compactMap { paths.folderLocation(ofPath: $0) }
            : paths.folderLocation(ofPath: folder).map { [$0] } ?? []
        var items: [QueueItem] = [], found = false
        for location in folders {
            guard let under = try await tracks(inFolder: location, sources: paths.sources) else { continue }
            found = true
            items += under
        }
        return found ? items : nil
    }

    /// Every track under a folder's location (ending in `/`), read a page at a time; nil when it
    /// has none.
    private func tracks(inFolder location: String, sources: SourceSet) async throws -> [QueueItem]? {
        guard try await library.hasTracks(under: location) else { return nil }
        var items: [QueueItem] = []
        var cursor: TrackCursor?
        repeat {
            let page = try await library.tracks(under: location, from: cursor, limit: Self.pageSize)
            items += page.tracks.map { Self.item($0, sources: sources) }
            cursor = page.next
        } while cursor != nil && items.count <= PlayQueue.maxEntries
        return items
    }

    package func songLocations() async -> @Sendable (String) -> String? {
        let paths = await paths
        return { paths.location(ofPath: $0) }
    }

    package func items(forSongLocations locations: [String]) async throws -> [[QueueItem]] {
        let paths = await paths
        let known = try await library.tracks(at: locations.map { TrackLocation(uri: $0) })
        var found: [[QueueItem]] = []
        found.reserveCapacity(locations.count)
        for location in locations {
            if let track = known[location] {
                found.append([Self.item(track, sources: paths.sources)])
            } else if let under = try await tracks(inFolder: location.hasSuffix("/") ? location : location + "/", sources: paths.sources) {
                found.append(under)
            } else {
                found.append([QueueItem(location: paths.sources.location(of: location))])
            }
        }
        return found
    }

    package func statistics() async -> MPDStatistics {
        guard let stats = try? await library.stats() else { return MPDStatistics() }
        return MPDStatistics(artists: stats.artists, albums: stats.albums, songs: stats.songs, playtime: stats.playtime,
                             updated: stats.updated.map { Int64($0) })
    }

    package func changes() -> AsyncStream<Set<MPDSubsystem>> {
        MPDLibraryChanges.stream(of: library) { [jobs, catalog] change in
            // A scan that changed the library ends (its job leaves `status`, `update` and
            // `database` are told) once its songs are listed: a client that lists the library
            // on `database` (Cantata's `listallinfo`) is answered from the new catalog.
            if case .scanFinished(libraryChanged: true) = change { await catalog.remade() }
            jobs.withLock { $0.follow(change) }
        }
    }

    package func maintain() async {
        await catalog.keepCurrent(library: library) { await self.paths }
    }

    package func clientArrived() {
        catalog.want()
    }

    package var updatingJob: Int? { jobs.withLock(\.running) }

    /// A library track as the queue takes it.
    static func item(_ track: LibraryTrack, sources: SourceSet) -> QueueItem {
        QueueItem(location: sources.location(of: track.url, recordedBy: track.source), metadata: metadata(track))
    }

    static func metadata(_ track: LibraryTrack) -> TrackMetadata {
        track.metadata
    }

    /// A library track as MPD prints it.
    static func song(_ track: LibraryTrack, paths: SongPaths) -> MPDSong {
        MPDSong(uri: paths.path(of: track), metadata: metadata(track))
    }
}

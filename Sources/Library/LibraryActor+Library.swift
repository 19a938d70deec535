import Config
import Foundation
import Loader

/// The library as others ask for it: scans, listings, search, playlists, pins.
extension LibraryActor {
    /// Scans each source in turn; one that is down is reported and the others go on.
    package func scan(_ sources: [SourceConfiguration], loader: LoaderActor) async -> [ScanReport] {
        var reports: [ScanReport] = []
        for source in sources {
            scanProgress = ScanProgress(source: source.name)
            let report = await LibraryScanner(source: source, loader: loader).scan(into: self)
            reports.append(report)
        }
        scanProgress = nil
        lastScanReports = reports
        return reports
    }

    /// Marks a scan as under way before it starts, so a second request is refused at once.
    package func beginScanning(_ first: String) -> Bool {
        guard scanProgress == nil else { return false }
        scanProgress = ScanProgress(source: first)
        return true
    }

    package var currentScan: ScanProgress? { scanProgress }
    package var lastScan: [ScanReport] { lastScanReports }

    package func search(_ text: String, limit: Int = 50) throws -> [LibraryTrack] {
        try database.search(text, limit: limit)
    }

    package func tracks(_ filter: TrackFilter, limit: Int = 1000, offset: Int = 0) throws -> [LibraryTrack] {
        try database.tracks(filter, limit: limit, offset: offset)
    }

    package func track(url: String) throws -> LibraryTrack? {
        try database.track(url: url)
    }

    /// A track by library id, or by location.
    package func track(_ reference: String) throws -> LibraryTrack {
        if let id = Int64(reference), let track = try database.track(id: id) { return track }
        if let track = try database.track(url: reference) { return track }
        throw LibraryError.noSuchTrack(reference)
    }

    package func playlists() throws -> [PlaylistSummary] {
        try database.playlists()
    }

    package func playlist(_ reference: String) throws -> LibraryPlaylist {
        try database.playlist(reference)
    }

    package func entries(of playlist: LibraryPlaylist) throws -> [PlaylistEntry] {
        try database.entries(of: playlist)
    }

    package func createPlaylist(named name: String) throws -> LibraryPlaylist {
        try database.createPlaylist(named: name)
    }

    package func deletePlaylist(_ reference: String) throws {
        try database.deletePlaylist(try database.playlist(reference))
    }

    package func add(_ urls: [String], toPlaylist reference: String) throws {
        try database.add(urls, to: try database.playlist(reference))
    }

    package func remove(_ urls: [String], fromPlaylist reference: String) throws -> Int {
        try database.remove(urls, from: try database.playlist(reference))
    }

    package func setPinned(_ pinned: Bool, playlist reference: String) throws -> LibraryPlaylist {
        let playlist = try database.playlist(reference)
        try database.setPinned(pinned, playlist)
        return playlist
    }

    package func pinnedURLs() throws -> [String] {
        try database.pinnedURLs()
    }

    package func summary(sources: [String]) throws -> LibrarySummary {
        try database.summary(sources: sources)
    }
}

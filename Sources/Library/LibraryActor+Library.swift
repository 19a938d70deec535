import FoundationEssentials
import Loader
import Model

/// The library as others ask for it: scans, listings, search, playlists, pins.
extension LibraryActor {
    /// Scans each source in turn, whatever kind it is; one that is down is reported and the
    /// others go on.
    package func scan(_ names: [String], loader: LoaderActor) async -> [ScanReport] {
        let sources = await loader.sources
        announce(.scanStarted)
        loader.forgetFolderCovers()
        var reports: [ScanReport] = []
        defer { announce(.scanFinished(libraryChanged: reports.contains(where: \.libraryChanged))) }
        for name in names {
            scanProgress = ScanProgress(source: name)
            scanProgress?.foldersBefore = try? database.foldersListed(by: name)
            let storage: (any MediaStorage)?
            do {
                storage = try await loader.storage(of: name)
            } catch {
                reports.append(recordFailure(of: name, "\(name): \(error)"))
                continue
            }
            guard let storage else {
                reports.append(recordFailure(of: name, "\(name): this source cannot list its files; scan a webdav, local or feed source"))
                continue
            }
            reports.append(await LibraryScanner(source: name, storage: storage, sources: sources, loader: loader).scan(into: self))
        }
        scanProgress = nil
        lastScanReports = reports
        startPendingRescan()
        return reports
    }

    /// A scan that could not start, kept as the source's last scan (`cloudplayerctl sources`
    /// shows its problem); nothing is marked gone.
    private func recordFailure(of source: String, _ problem: String) -> ScanReport {
        if let store = try? database, let mark = try? store.beginScan(of: source) {
            _ = try? store.finishScan(of: source, mark: mark, folders: 0, complete: false, problems: [problem])
        }
        return ScanReport(source: source, failed: problem)
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
        try checked { try $0.search(text, limit: limit) }
    }

    package func tracks(_ filter: TrackFilter, limit: Int = 1000, offset: Int = 0) throws -> [LibraryTrack] {
        try checked { try $0.tracks(filter, limit: limit, offset: offset) }
    }

    package func track(at location: TrackLocation) throws -> LibraryTrack? {
        try checked { try $0.track(url: location.uri) }
    }

    /// The tracks at these locations that the library knows, by their locations' text form.
    package func tracks(at locations: [TrackLocation]) throws -> [String: LibraryTrack] {
        try checked { try $0.tracks(urls: locations.map(\.uri)) }
    }

    /// A track by library id.
    package func track(id reference: String) throws -> LibraryTrack {
        guard let id = Int64(reference), let track = try checked({ try $0.track(id: id) }) else { throw LibraryError.noSuchTrack(reference) }
        return track
    }

    package func playlists() throws -> [PlaylistSummary] {
        try checked { try $0.playlists() }
    }

    package func playlist(_ reference: String) throws -> LibraryPlaylist {
        try checked { try $0.playlist(reference) }
    }

    package func entries(of playlist: LibraryPlaylist) throws -> [PlaylistEntry] {
        try checked { try $0.entries(of: playlist) }
    }

    /// The user's playlists are also written as M3U files on every change (`PlaylistMirror`).
    package func createPlaylist(named name: String) throws -> LibraryPlaylist {
        try checked { store in
            let playlist = try store.createPlaylist(named: name)
            mirrorChange(of: playlist.name, in: store)
            announce(.playlistsChanged)
            return playlist
        }
    }

    package func deletePlaylist(_ reference: String) throws {
        try checked { store in
            let playlist = try store.playlist(reference)
            try store.deletePlaylist(playlist)
            mirror?.remove(name: playlist.name)
            announce(.playlistsChanged)
        }
    }

    package func add(_ locations: [TrackLocation], toPlaylist reference: String) throws {
        try checked { store in
            let playlist = try store.playlist(reference)
            try store.add(locations.map(\.uri), to: playlist)
            mirrorChange(of: playlist.name, in: store)
            announce(.playlistsChanged)
        }
    }

    package func remove(_ locations: [TrackLocation], fromPlaylist reference: String) throws -> Int {
        try checked { store in
            let playlist = try store.playlist(reference)
            let removed = try store.remove(locations.map(\.uri), from: playlist)
            mirrorChange(of: playlist.name, in: store)
            announce(.playlistsChanged)
            return removed
        }
    }

    package func setPinned(_ pinned: Bool, playlist reference: String) throws -> LibraryPlaylist {
        try checked { store in
            let playlist = try store.playlist(reference)
            try store.setPinned(pinned, playlist)
            mirrorChange(of: reference, in: store)
            announce(.playlistsChanged)
            return playlist
        }
    }

    /// Where a long track was left (nil: from the start), whether it was heard to the end, and
    /// the speed the user chose for it (nil: its source's).
    package func recordProgress(at location: TrackLocation, resumeAt: Double?, played: Bool, speed: Double? = nil) throws {
        try checked { try $0.recordProgress(url: location.uri, resumeAt: resumeAt, played: played, speed: speed) }
    }

    /// Marks library tracks (by id) played or not; an id the library does not have is an error.
    package func setPlayed(_ played: Bool, ids references: [String]) throws {
        let ids = try references.map { reference in
            guard let id = Int64(reference) else { throw LibraryError.noSuchTrack(reference) }
            return id
        }
        let found = try checked { try $0.setPlayed(played, ids: ids) }
        if found < Set(ids).count {
            let known = try checked { store in try ids.filter { try store.track(id: $0) != nil } }
            throw LibraryError.noSuchTrack(references.first { Int64($0).map { !known.contains($0) } ?? true } ?? "")
        }
    }

    package func pinnedURLs() throws -> [String] {
        try checked { try $0.pinnedURLs() }
    }

    package func summary(sources: [String]) throws -> LibrarySummary {
        try checked { try $0.summary(sources: sources) }
    }

    /// The config changed these sources: what their last scans found wrong is not shown again.
    package func forgetScanProblems(of sources: [String]) throws {
        try checked { try $0.forgetScanProblems(of: sources) }
    }
}

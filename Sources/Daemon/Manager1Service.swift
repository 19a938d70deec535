import Base
import DBus
import Foundation
import Library
import Loader
import Logging
import Manager1
import Model
import MPRIS
import Playback
import Scrobbling

/// Carries out `org.cloudplayerd.Manager1` calls — library scans and queries, the queue,
/// playlists, the cache — and gives MPRIS the library's playlists. What plays and the queue come
/// from the player's last published state (`Player.latest`); queue changes are player commands.
/// Everything that waits runs off the bus thread; every error is a D-Bus error with a one-line
/// message and never a secret.
package final class Manager1Service: Sendable {
    private let player: Player
    private let library: LibraryActor
    private let loader: LoaderActor
    private let scrobbler: ListenBrainzScrobbler?
    /// Re-reads the config file (as SIGHUP does); returns the problem, or nil.
    private let reload: @Sendable () async -> String?
    /// Who hears that the library's playlists changed (MPRIS's PlaylistCount), and the object
    /// that announces finished scans; set once published.
    private let listeners = Locked<(libraryChanged: (@Sendable () -> Void)?, object: BusObject?)>((nil, nil))
    private let logger = Logger(label: "cloudplayerd.manager")

    package init(player: Player, library: LibraryActor, loader: LoaderActor, scrobbler: ListenBrainzScrobbler? = nil,
                 reload: @escaping @Sendable () async -> String?) {
        self.player = player
        self.library = library
        self.loader = loader
        self.scrobbler = scrobbler
        self.reload = reload
    }

    /// Publishes the interface on `connection`; `libraryChanged` hears when playlists change.
    package func publish(on connection: BusConnection, libraryChanged: @escaping @Sendable () -> Void) async throws {
        let object = BusObject(path: Manager1.path, interfaces: [interface()], connection: connection)
        try await object.register()
        listeners.withLock { $0 = (libraryChanged, object) }
    }

    private func libraryChanged() {
        listeners.withLock { $0.libraryChanged }?()
    }

    // MARK: The interface

    /// What `publish` registers; each method's work waits, so each runs off the bus thread.
    package func interface() -> BusInterface {
        let interface = BusInterface(Manager1.interface, refusal: Self.refusal)
        interface.method(Manager1.status) { [self] in try await status() }
        interface.method(Manager1.scan) { [self] names in try await startScan(names) }
        interface.method(Manager1.scanStatus) { [self] in await scanStatus() }
        interface.method(Manager1.listTracks) { [self] artist, album, title, source, offset, limit in
            let filter = TrackFilter(artist: artist.nonEmpty, album: album.nonEmpty, title: title.nonEmpty, source: source.nonEmpty)
            return try await library.tracks(filter, limit: Self.limit(limit), offset: Int(offset)).map(Self.record)
        }
        interface.method(Manager1.search) { [self] text, limit in
            try await library.search(text, limit: Self.limit(limit)).map(Self.record)
        }
        interface.method(Manager1.queueAdd) { [self] references, play in
            let items = try await items(references)
            await player.perform(.add(items, at: .end, play: play))
            return UInt32(items.count)
        }
        interface.method(Manager1.queueList) { [self] () async in queue() }
        interface.method(Manager1.queueClear) { [self] in
            await player.perform(.replaceQueue([], play: false))
            return BusNothing()
        }
        interface.method(Manager1.queuePlay) { [self] index in
            let entries = player.latest.queue.entries
            guard entries.indices.contains(Int(index)) else {
                throw ManagerError.invalid("the queue has \(entries.count) entries; there is no entry \(Int(index) + 1)")
            }
            await player.perform(.playNow(entries[Int(index)].id))
            return BusNothing()
        }
        interface.method(Manager1.playlistList) { [self] in try await library.playlists().map(Self.record) }
        interface.method(Manager1.playlistShow) { [self] reference in
            let playlist = try await library.playlist(reference)
            let itemTitles = playlist.kind == .feed  // an episode is called what its feed calls it
            return try await library.entries(of: playlist).map { Self.record($0, itemTitle: itemTitles) }
        }
        interface.method(Manager1.playlistCreate) { [self] name in
            let id = try await library.createPlaylist(named: name).id ?? 0
            libraryChanged()
            return id
        }
        interface.method(Manager1.playlistDelete) { [self] reference in
            try await library.deletePlaylist(reference)
            libraryChanged()
            try await keepPinned()
            return BusNothing()
        }
        interface.method(Manager1.playlistAdd) { [self] reference, references in
            try await library.add(try await items(references).map(\.location), toPlaylist: reference)
            let playlist = try await library.playlist(reference)
            try await keepPinned(downloading: playlist.pinned ? playlist : nil)
            return BusNothing()
        }
        interface.method(Manager1.playlistRemove) { [self] reference, references in
            let removed = try await library.remove(try await items(references).map(\.location), fromPlaylist: reference)
            try await keepPinned()
            return UInt32(clamping: removed)
        }
        interface.method(Manager1.playlistPlay) { [self] reference in
            try await activate(reference)
            return BusNothing()
        }
        interface.method(Manager1.sources) { [self] in try await sources() }
        interface.method(Manager1.cacheStats) { [self] in
            let stats = await loader.cacheStats()
            return Manager1.CacheStats(entries: UInt32(clamping: stats.entries), bytes: stats.bytes, limit: stats.limit,
                                       pinnedEntries: UInt32(clamping: stats.protectedEntries), pinnedBytes: stats.protectedBytes,
                                       directory: stats.directory)
        }
        interface.method(Manager1.cacheShow) { [self] reference in
            let location = try await items([reference])[0].location
            let cached = await loader.cachedRanges(of: location)
            let ranges = cached?.ranges ?? []
            return Manager1.CachedRanges(url: location.uri, length: cached?.length ?? -1,
                                         cached: ranges.reduce(0) { $0 + Int64($1.count) },
                                         ranges: ranges.flatMap { [$0.lowerBound, $0.upperBound] })
        }
        interface.method(Manager1.cachePin) { [self] reference in try await pin(reference, true) }
        interface.method(Manager1.cacheUnpin) { [self] reference in try await pin(reference, false) }
        interface.method(Manager1.cacheClear) { [self] in await loader.clearCache() }
        interface.method(Manager1.reload) { [self] in
            if let problem = await reload() { throw ManagerError.invalid(problem) }
            return BusNothing()
        }
        interface.method(Manager1.mark) { [self] played, references in
            try await library.setPlayed(played, ids: references)
            return BusNothing()
        }
        interface.method(Manager1.control) { [self] command, value in
            await player.perform(try Self.playerCommand(command, value))
            return BusNothing()
        }
        interface.signal(Manager1.scanFinished)
        return interface
    }

    /// An error as the D-Bus error a caller sees: its name says what kind, its message why.
    private static func refusal(_ error: any Error) -> BusCallError {
        switch error {
        case let error as LibraryError: BusCallError(name: errorName(error), message: "\(error)")
        case let error as ManagerError: BusCallError(name: Manager1.errorPrefix + error.name, message: error.message)
        default: BusCallError(name: Manager1.errorPrefix + "Failed", message: "\(error)")
        }
    }

    private static func errorName(_ error: LibraryError) -> String {
        switch error {
        case .newerDatabase, .cannotOpen, .damaged: Manager1.errorPrefix + "LibraryUnavailable"
        case .noSuchSource, .noSuchPlaylist, .noSuchTrack: Manager1.errorPrefix + "NotFound"
        case .badPlaylistName, .notEditable: "org.freedesktop.DBus.Error.InvalidArgs"
        }
    }

    // MARK: Playlists and pins

    /// Makes the loader keep pinned playlists' files, and downloads `playlist` whole in the
    /// background.
    package func keepPinned(downloading playlist: LibraryPlaylist? = nil) async throws {
        let sources = await loader.sources
        await loader.keep(try await library.pinnedURLs().map { sources.location(of: $0) })
        guard let playlist else { return }
        let files = try await library.entries(of: playlist).map { sources.location(of: $0.url) }
        Task { [loader, logger] in
            for file in files {
                do { try await loader.fetchWhole(file) } catch {
                    logger.notice("pinned track not downloaded", metadata: ["track": "\(file.displayName)", "reason": "\(error)"])
                }
            }
        }
    }

    private func pin(_ reference: String, _ pinning: Bool) async throws -> BusNothing {
        let playlist = try await library.setPinned(pinning, playlist: reference)
        try await keepPinned(downloading: pinning ? playlist : nil)
        return BusNothing()
    }

    /// Replaces the queue with a playlist's tracks and plays the first (MPRIS ActivatePlaylist too).
    private func activate(_ reference: String) async throws {
        let playlist = try await library.playlist(reference)
        let sources = await loader.sources
        let items = try await library.entries(of: playlist).map { entry in
            QueueItem(location: sources.location(of: entry.url), metadata: entry.track.map(Self.metadata) ?? TrackMetadata())
        }
        guard !items.isEmpty else { throw ManagerError.invalid("the playlist '\(playlist.name)' is empty") }
        await player.perform(.replaceQueue(items, playlist: playlist.id, play: true))
    }

    // MARK: Scans

    /// Scans every scannable source, as `cloudplayerctl scan` does: after the library was made
    /// anew for a damaged one.
    package func rescanAll() async {
        guard await loader.sources.all.contains(where: \.isScannable) else { return }  // nothing to scan
        do {
            _ = try await startScan([])
        } catch {
            let reason = (error as? ManagerError)?.message ?? "\(error)"
            logger.warning("the new library was not scanned: \(reason); run cloudplayerctl scan")
        }
    }

    private func startScan(_ names: [String]) async throws -> BusNothing {
        let configured = await loader.sources
        let sources: [String]
        if names.isEmpty {
            sources = configured.all.filter(\.isScannable).map(\.name)
            guard !sources.isEmpty else { throw ManagerError.invalid("no source to scan: add a webdav, local or feed source to the config file") }
        } else {
            sources = try names.map { name in
                guard configured.source(named: name) != nil else { throw LibraryError.noSuchSource(name) }
                return name
            }
        }
        guard await library.beginScanning(sources[0]) else {
            throw ManagerError(name: "Busy", message: "a scan is already running; see cloudplayerctl status")
        }
        Task { [self, library, loader, logger] in
            let reports = await library.scan(sources, loader: loader)
            // Pinned folders and feeds may hold new tracks: keep and fetch them too.
            for playlist in (try? await library.playlists().map(\.playlist).filter(\.pinned)) ?? [] {
                try? await keepPinned(downloading: playlist)
            }
            for report in reports {
                logger.info("scan finished", metadata: ["source": "\(report.source)", "folders": "\(report.folders)",
                                                        "tracks": "\(report.tracks)", "read": "\(report.tagsRead)",
                                                        "gone": "\(report.gone)", "problems": "\(report.problems.count)"])
            }
            libraryChanged()
            listeners.withLock { $0.object }?.emit(Manager1.scanFinished, of: Manager1.interface, reports.map(Self.record))
        }
        return BusNothing()
    }

    private func scanStatus() async -> Manager1.ScanStatus {
        let progress = await library.currentScan
        var status = Manager1.ScanStatus(running: progress != nil, reports: await library.lastScan.map(Self.record))
        if let progress {
            status.source = progress.source
            status.foldersDone = UInt32(clamping: progress.foldersDone)
            status.foldersFound = UInt32(clamping: progress.foldersFound)
            status.tracks = UInt32(clamping: progress.tracks)
            status.tagsRead = UInt32(clamping: progress.tagsRead)
            status.bytes = progress.bytesFetched
        }
        return status
    }

    // MARK: Answers

    private func status() async throws -> Manager1.Status {
        let snapshot = player.latest
        var status = Manager1.Status(status: snapshot.status.rawValue, volume: snapshot.volume, loop: snapshot.queue.loop.rawValue,
                                     shuffle: snapshot.queue.shuffle, queueLength: UInt32(clamping: snapshot.queue.entries.count),
                                     scanning: await library.currentScan != nil)
        status.sleepLeft = snapshot.sleepAt.map { max(0, $0.timeIntervalSinceNow) }
        status.stopAfter = snapshot.stopsAfterCurrent ? true : nil
        if let scrobbling = scrobbler?.report() {
            status.listensWaiting = UInt32(clamping: scrobbling.waiting)
            status.scrobbleProblem = scrobbling.problem
        }
        if let current = snapshot.current {
            let tags = current.metadata.tags
            status.url = current.location.uri
            status.title = current.title
            status.artist = tags.artist ?? ""
            status.album = tags.album ?? ""
            if snapshot.status != .stopped { status.position = snapshot.seconds() }
            status.duration = snapshot.currentInfo?.duration ?? current.metadata.duration
        }
        do {
            let summary = try await library.summary(sources: [])
            status.libraryTracks = UInt32(clamping: summary.tracks)
            status.playlists = UInt32(clamping: summary.playlists)
        } catch {
            status.libraryProblem = "\(error)"
        }
        return status
    }

    /// The queue as the player's last snapshot has it, with how much of each track the cache
    /// holds (which the player follows for every queued track).
    private func queue() -> [Manager1.QueuedTrack] {
        let snapshot = player.latest
        return snapshot.queue.entries.enumerated().map { index, entry in
            var track = Manager1.QueuedTrack(index: UInt32(index), url: entry.location.uri, title: entry.title,
                                             current: entry.id == snapshot.current?.id, artist: entry.metadata.tags.artist,
                                             duration: entry.metadata.duration)
            track.cached = snapshot.cached[entry.location]?.rawValue
            return track
        }
    }

    private func sources() async throws -> [Manager1.Source] {
        let configured = await loader.sources.all
        let summary = try? await library.summary(sources: configured.map(\.name))
        var statuses: [String: String] = [:]
        for source in configured { statuses[source.name] = await source.status }
        return configured.map { source in
            let counts = summary?.sources.first { $0.name == source.name }
            return Manager1.Source(name: source.name, type: type(of: source).typeName, url: source.shownLocation,
                                   tracks: UInt32(clamping: counts?.tracks ?? 0), gone: UInt32(clamping: counts?.gone ?? 0),
                                   lastScan: counts?.lastScan.map { Int64($0.timeIntervalSince1970) } ?? -1,
                                   problems: [statuses[source.name], counts?.problems].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: "; "))
        }
    }

    /// Track references as queue items: a library id, a location's text form, or an http(s)/file
    /// URL without credentials; with what the library knows of them.
    private func items(_ references: [String]) async throws -> [QueueItem] {
        guard !references.isEmpty else { throw ManagerError.invalid("name at least one track") }
        let sources = await loader.sources
        var items: [QueueItem] = []
        for reference in references.prefix(100_000) {
            if Int64(reference) != nil {
                let track = try await library.track(id: reference)
                items.append(QueueItem(location: sources.location(of: track.url), metadata: Self.metadata(track)))
                continue
            }
            guard let url = URL(string: reference), Manager1.trackSchemes.contains(url.scheme?.lowercased() ?? "") else {
                throw ManagerError.invalid("'\(reference.prefix(80))' is neither a track id nor a location (an http(s), file or cloudplayer URI)")
            }
            guard url.user == nil, url.password == nil else {
                throw ManagerError.invalid("credentials in a URI are not accepted over D-Bus; name the server in the config file")
            }
            items.append(QueueItem(location: sources.location(of: reference)))
        }
        return await filled(items)
    }

    /// Locations' text forms (a saved queue's) as queue items, placed among the sources, with what
    /// the library knows of them.
    package func items(forTexts texts: [String]) async -> [QueueItem] {
        let sources = await loader.sources
        return await filled(texts.map { QueueItem(location: sources.location(of: $0)) })
    }

    /// Items without metadata given what the library knows of their tracks, in one lookup.
    private func filled(_ items: [QueueItem]) async -> [QueueItem] {
        let unknown = items.filter { $0.metadata == TrackMetadata() }.map(\.location)
        guard !unknown.isEmpty, let known = try? await library.tracks(at: unknown) else { return items }
        return items.map { item in
            guard item.metadata == TrackMetadata(), let track = known[item.location.uri] else { return item }
            return QueueItem(location: item.location, metadata: Self.metadata(track))
        }
    }

    private static func limit(_ asked: UInt32) -> Int {
        asked == 0 ? 1000 : min(Int(asked), 100_000)
    }

    /// What a `Control` call asks of the player.
    static func playerCommand(_ name: String, _ value: Double) throws -> PlayerCommand {
        let needsValue = ["seek", "skip", "volume", "sleep"].contains(name)
        guard !needsValue || value.isFinite else { throw ManagerError.invalid("\(name) needs a number, not \(value)") }
        switch name {
        case "play": return .play
        case "pause": return .pause
        case "toggle": return .playPause
        case "stop": return .stop
        case "next": return .next
        case "previous": return .previous
        case "seek":
            guard value >= 0 else { throw ManagerError.invalid("seek needs a position of 0 seconds or more") }
            return .seek(to: value)
        case "skip": return .skip(by: value)
        case "volume":
            guard value >= 0, value <= 1.5 else { throw ManagerError.invalid("the volume goes from 0 to 1.5 (150 %)") }
            return .setVolume(value)
        case "sleep":
            guard value >= 0, value <= 7 * 86400 else { throw ManagerError.invalid("a sleep timer runs from 0 (off) to 7 days") }
            return .sleep(at: value == 0 ? nil : Date(timeIntervalSinceNow: value))
        case "stop-after":
            return .stopAfterCurrent(value != 0)
        default:
            throw ManagerError.invalid("'\(name.prefix(40))' is not a control "
                + "(play, pause, toggle, stop, next, previous, seek, skip, volume, sleep, stop-after)")
        }
    }

    /// What the queue and MPRIS show of a library track before it plays.
    static func metadata(_ track: LibraryTrack) -> TrackMetadata {
        TrackMetadata(tags: track.tags, duration: track.duration, resumeAt: track.resumeAt, played: track.played)
    }

    static func record(_ track: LibraryTrack) -> Manager1.Track {
        var record = Manager1.Track(url: track.url, title: track.displayTitle)
        record.id = track.id ?? 0
        record.source = track.source
        record.gone = track.gone
        record.artist = track.artist
        record.album = track.album
        record.albumArtist = track.albumArtist
        record.genre = track.genre
        record.codec = track.codec
        record.problem = track.problem
        record.track = track.trackNumber.map { Int32(clamping: $0) }
        record.disc = track.discNumber.map { Int32(clamping: $0) }
        record.year = track.year.map { Int32(clamping: $0) }
        record.duration = track.duration
        record.published = track.published.map { Int64($0.timeIntervalSince1970) }
        record.resumeAt = track.resumeAt
        record.played = track.played ? true : nil
        return record
    }

    static func record(_ summary: PlaylistSummary) -> Manager1.Playlist {
        let playlist = summary.playlist
        return Manager1.Playlist(id: playlist.id ?? 0, name: playlist.name, kind: playlist.kind.rawValue, source: playlist.source ?? "",
                                 tracks: UInt32(clamping: summary.count), pinned: playlist.pinned)
    }

    /// A playlist line: the library's track if it knows the location (with the line's own title
    /// if `itemTitle`), else the location and the line's title.
    static func record(_ entry: PlaylistEntry, itemTitle: Bool = false) -> Manager1.Track {
        if let track = entry.track {
            var record = record(track)
            if itemTitle, let title = entry.title { record.title = title }
            return record
        }
        return Manager1.Track(url: entry.url, title: entry.title ?? TrackLocation(uri: entry.url).displayName)
    }

    static func record(_ report: ScanReport) -> Manager1.ScanReport {
        Manager1.ScanReport(source: report.source, folders: UInt32(clamping: report.folders), tracks: UInt32(clamping: report.tracks),
                            tagsRead: UInt32(clamping: report.tagsRead), gone: UInt32(clamping: report.gone),
                            playlists: UInt32(clamping: report.playlists), bytes: report.bytesFetched, failed: report.failed,
                            problems: report.problems)
    }
}

/// MPRIS Playlists offers the library's playlists; a track a client adds shows the library's tags.
extension Manager1Service: MPRISLibrary {
    package func playlists() async -> [MPRISPlaylist] {
        guard let summaries = try? await library.playlists() else { return [] }
        return summaries.compactMap { summary in summary.playlist.id.map { MPRISPlaylist(libraryID: $0, name: summary.playlist.name) } }
    }

    package func activate(libraryID: Int64) async throws {
        try await activate(String(libraryID))
    }

    package func item(for url: URL) async -> QueueItem {
        let location = await loader.sources.location(of: url)
        return await filled([QueueItem(location: location)])[0]
    }
}

/// A Manager1 call refused: its error name (after `org.cloudplayerd.Error.`) and message.
struct ManagerError: Error {
    var name: String
    var message: String

    static func invalid(_ message: String) -> ManagerError {
        ManagerError(name: "InvalidArgs", message: message)
    }
}

extension String {
    /// nil for an empty string: an empty D-Bus argument means "not given".
    var nonEmpty: String? { isEmpty ? nil : self }
}

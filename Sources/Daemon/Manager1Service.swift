import Base
import DBus
import Library
import Loader
import Logging
import Manager1
import MPRIS
import Playback
import Scrobbling

/// Carries out `org.cloudplayerd.Manager1` calls — library scans and queries, the queue,
/// playlists, the cache — and gives MPRIS the library's playlists. What plays and the queue come
/// from the player's last published state (`Player.latest`); what a client queues comes in by
/// `intake`, as MPRIS's tracks do. Everything that waits runs off the bus thread; every error is
/// a D-Bus error with a one-line message and never a secret.
///
/// This file holds the method table; the work is in extensions by concern: playlists and pins
/// (`+Playlists`), scans (`+Scans`), the answers that report (`+Answers`), and the records sent
/// (`+Records`).
package final class Manager1Service: Sendable {
    let player: Player
    let library: LibraryActor
    let loader: LoaderActor
    let scrobbler: ListenBrainzScrobbler?
    /// The one way into the queue, shared with MPRIS.
    package let intake: QueueIntake
    /// Re-reads the config file (as SIGHUP does); returns the problem, or nil.
    let reload: @Sendable () async -> String?
    /// Who hears that the library's playlists changed (MPRIS's PlaylistCount), and the object
    /// that announces finished scans; set once published.
    let listeners = Locked<(libraryChanged: (@Sendable () -> Void)?, object: BusObject?)>((nil, nil))
    let logger = Logger(label: "cloudplayerd.manager")

    package init(player: Player, library: LibraryActor, loader: LoaderActor, scrobbler: ListenBrainzScrobbler? = nil,
                 reload: @escaping @Sendable () async -> String?) {
        self.player = player
        self.library = library
        self.loader = loader
        self.scrobbler = scrobbler
        self.reload = reload
        intake = QueueIntake(player: player, sources: { await loader.sources }, catalog: LibraryCatalog(library: library))
    }

    /// Publishes the interface on `connection`; `libraryChanged` hears when playlists change.
    package func publish(on connection: BusConnection, libraryChanged: @escaping @Sendable () -> Void) async throws {
        let object = BusObject(path: Manager1.path, interfaces: [interface()], connection: connection)
        try await object.register()
        listeners.withLock { $0 = (libraryChanged, object) }
    }

    func libraryChanged() {
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
            UInt32(try await intake.add(references: references, play: play))
        }
        interface.method(Manager1.queueList) { [self] () async in queue() }
        interface.method(Manager1.queueClear) { [self] in
            await player.perform(.replaceQueue([], play: false))
            return BusNothing()
        }
        interface.method(Manager1.queuePlay) { [self] index in
            let entries = player.latest.queue.entries
            guard entries.indices.contains(Int(index)) else {
                throw ManagerError.invalid("the queue has \(entries.count.counted("entry", plural: "entries")); there is no entry \(Int(index) + 1)")
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
            try await library.add(try await intake.items(for: references).map(\.location), toPlaylist: reference)
            let playlist = try await library.playlist(reference)
            try await keepPinned(downloading: playlist.pinned ? playlist : nil)
            return BusNothing()
        }
        interface.method(Manager1.playlistRemove) { [self] reference, references in
            let removed = try await library.remove(try await intake.items(for: references).map(\.location), fromPlaylist: reference)
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
            let location = try await intake.items(for: [reference])[0].location
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
            let asked = try Self.playerCommand(command, value)
            if case .chapter(let jump) = asked { try Self.check(jump, in: player.latest) }
            if case .seek(let seconds) = asked { try Self.check(seek: seconds, in: player.latest) }
            await player.perform(asked)
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
        case let error as QueueRefusal: error.busError
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

    private static func limit(_ asked: UInt32) -> Int {
        asked == 0 ? 1000 : min(Int(asked), 100_000)
    }
}

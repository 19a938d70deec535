import FoundationEssentials
import Loader
import Model

/// The one way into the queue for clients on the bus: MPRIS `OpenUri` and `AddTrack`, Manager1
/// `QueueAdd`, a library playlist played. What a client names — a URI, or a library track id where
/// ids are taken — becomes queue items placed among the sources with what the library knows of
/// them, or one `QueueRefusal`; the queue's limits (`PlayQueue.maxEntries`, `.maxLocationBytes`)
/// are checked here against the player's latest snapshot, never by asking the player. Written
/// once, so both fronts take the same things and say the same when they do not.
package struct QueueIntake: Sendable {
    /// The URI schemes a client may name: `cloudplayer://SOURCE/PATH` is a track of a source that
    /// has no URLs of its own (a cloud drive, S3), as the library and the track list name it.
    package static let schemes = ["file", "http", "https", TrackLocation.scheme]

    private let player: Player
    /// The configured sources as they are now (a reload may change them).
    private let sources: @Sendable () async -> SourceSet
    private let catalog: (any TrackCatalog)?

    package init(player: Player, sources: @escaping @Sendable () async -> SourceSet, catalog: (any TrackCatalog)? = nil) {
        self.player = player
        self.sources = sources
        self.catalog = catalog
    }

    // MARK: Into the queue

    /// Manager1 `QueueAdd`: library track ids or URIs, queued at the end as they are (a bad file
    /// is skipped when its turn comes); returns how many.
    package func add(references: [String], play: Bool) async throws -> Int {
        // Before any look-up: a call the queue could not take however its references resolve.
        try checkRoom(player.latest.queue.overflow(adding: references.count, bytes: 0))
        let items = try await items(for: references)
        try checkRoom(player.latest.queue.overflow(adding: items))
        await player.perform(.add(items, at: .end, play: play))
        return items.count
    }

    /// MPRIS `OpenUri` and `AddTrack`: one URI, probed before it is queued (the method runs off
    /// the bus thread) — so a missing or non-audio file is an error for the caller, not a silent
    /// skip later.
    package func add(uri text: String, at placement: PlayQueue.Placement, play: Bool) async throws {
        let item = try await items(for: [text], idsTaken: false)[0]
        try checkRoom(player.latest.queue.overflow(adding: [item]))
        do {
            _ = try await player.probe(item.location)
        } catch {
            throw QueueRefusal.cannotPlay(item.location.displayName, reason: "\(error)")
        }
        await player.perform(.add([item], at: placement, play: play))
    }

    /// MPD's `add` and `addid`: items already resolved (`items(for:)`), placed where the client
    /// asked, within the queue's limits; returns the state once they are queued.
    /// Items named without what the library knows (`items(for:filling: false)`, a command
    /// list's adds) are filled here, all in one look-up.
    @discardableResult
    package func add(_ items: [QueueItem], at placement: PlayQueue.Placement, play: Bool = false) async throws -> PlayerSnapshot {
        try checkRoom(player.latest.queue.overflow(adding: items))
        return await player.perform(.add(await filled(items), at: placement, play: play))
    }

    /// Replaces the queue with `items` (a library playlist's, `playlist` its id) and plays it.
    package func replace(with items: [QueueItem], playlist: Int64?) async throws {
        try checkRoom(player.latest.queue.overflow(adding: items, replacing: true))
        await player.perform(.replaceQueue(items, playlist: playlist, play: true))
    }

    private func checkRoom(_ overflow: QueueOverflow?) throws {
        if let overflow { throw QueueRefusal.full(overflow) }
    }

    // MARK: Items

    /// Track references as queue items: a library id (where `idsTaken`), or a location's text
    /// form — a URI of one of `schemes`, without credentials — with what the library knows. A
    /// `stranger`'s URI is held to `strangersLocation(of:)`. Not `filling`: without what the
    /// library knows of a URI (the adds of a command list, filled together when they are queued).
    package func items(for references: [String], idsTaken: Bool = true, by requester: Requester = .owner,
                       filling: Bool = true) async throws -> [QueueItem] {
        guard !references.isEmpty else { throw QueueRefusal.nothingNamed }
        guard references.count <= PlayQueue.maxEntries else { throw QueueRefusal.tooMany(references.count) }
        let sources = await sources()
        var items: [QueueItem] = []
        for reference in references {
            if idsTaken, let catalog, Int64(reference) != nil {
                let track = try await catalog.track(id: reference)
                items.append(QueueItem(location: sources.location(of: track.location, recordedBy: track.source), metadata: track.metadata))
                continue
            }
            guard let url = URL(string: reference), Self.schemes.contains(url.scheme?.lowercased() ?? "") else {
                throw QueueRefusal.notALocation(reference, idsTaken: idsTaken)
            }
            // A URI on the bus is seen by every client (the track list, Metadata): no secrets in it.
            guard url.user == nil, url.password == nil else { throw QueueRefusal.credentials }
            switch requester {
            case .owner: items.append(QueueItem(location: sources.location(of: url)))
            case .stranger: items.append(QueueItem(location: try await Self.strangersLocation(of: url, among: sources)))
            }
        }
        return filling ? await filled(items) : items
    }

    /// A saved queue's locations as queue items, with what the library knows of them; as many as
    /// the queue's limits let in (a queue saved before there were limits).
    package func items(forTexts texts: [String]) async -> [QueueItem] {
        let sources = await sources()
        var bytes = 0
        let fitting = texts.prefix(PlayQueue.maxEntries).map { QueueItem(location: sources.location(of: $0)) }.prefix { item in
            bytes += item.location.uri.utf8.count
            return bytes <= PlayQueue.maxLocationBytes
        }
        return await filled(Array(fitting))
    }

    /// Items without metadata given what the library knows of their tracks, in one look-up.
    private func filled(_ items: [QueueItem]) async -> [QueueItem] {
        let unknown = items.filter { $0.metadata == TrackMetadata() }.map(\.location)
        guard !unknown.isEmpty, let catalog else { return items }
        let known = await catalog.metadata(of: unknown)
        guard !known.isEmpty else { return items }
        return items.map { item in
            guard item.metadata == TrackMetadata(), let metadata = known[item.location.uri] else { return item }
            return QueueItem(location: item.location, metadata: metadata)
        }
    }
}

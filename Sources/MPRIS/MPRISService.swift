import CSystemd
import DBus
import Foundation
import Library
import Logging
import Model
import Playback

/// Publishes the player on the session bus as an MPRIS 2.2 media player.
///
/// Property reads are answered on the bus thread from an `MPRISModel` that a task keeps current
/// from the player's events; method calls become player commands. Objects are registered
/// before the name is requested, so a client that sees the name finds them.
package final class MPRISService: Sendable {
    /// Yields when a client calls `Quit`.
    package let quitRequests: AsyncStream<Void>
    private let connection: BusConnection
    private let object: MPRISObject
    private let model: MPRISModel
    private let playlists: (any MPRISPlaylistCatalog)?
    private let feeder: Task<Void, Never>

    /// Registers the MPRIS object on `connection` (the owner then takes the bus name). With a
    /// `playlists` catalog, MPRIS Playlists offers its playlists.
    package init(player: Player, playlists: (any MPRISPlaylistCatalog)? = nil, connection: BusConnection) async throws {
        let model = MPRISModel()
        let (quitRequests, quitSink) = AsyncStream.makeStream(of: Void.self)
        let object = MPRISObject(model: model, connection: connection) { request in
            Self.carryOut(request, player: player, playlists: playlists, model: model, quit: quitSink)
        }
        connection.keepAlive(object)
        try await connection.register { bus in object.register(on: bus) }
        self.quitRequests = quitRequests
        self.connection = connection
        self.object = object
        self.model = model
        self.playlists = playlists
        let events = player.subscribe()
        feeder = Task { await Self.feed(model, from: events, player: player, object: object, connection: connection) }
        if playlists != nil { refreshPlaylists() }
    }

    /// Reads the catalog's playlists into the model and announces the new count.
    package func refreshPlaylists() {
        guard let playlists else { return }
        Task { [model, object, connection] in
            let sorted = await playlists.playlists().sorted { $0.name.localizedCaseInsensitiveCompare($1.name) == .orderedAscending }
            let changes = model.update { $0.playlists = sorted }
            connection.perform { bus in
                for (interface, names) in changes { object.emitChanged(on: bus, interface: interface, names: names) }
            }
        }
    }

    /// Stops following the player (the owner closes the connection).
    package func stop() async {
        feeder.cancel()
        await feeder.value
        withExtendedLifetime(object) {}
    }

    /// Turns a method call or property write into a player command (on the bus thread, so it
    /// only sends, never waits). Refuses, with a D-Bus error, what cannot be honoured.
    private static func carryOut(_ request: MPRISRequest, player: Player, playlists: (any MPRISPlaylistCatalog)?, model: MPRISModel,
                                 quit: AsyncStream<Void>.Continuation) -> BusOutcome {
        switch request {
        case .raise: break
        case .quit: quit.yield()
        case .next: player.send(.next)
        case .previous: player.send(.previous)
        case .pause: player.send(.pause)
        case .playPause: player.send(.playPause)
        case .stop: player.send(.stop)
        case .play: player.send(.play)
        case .seek(let offset): player.send(.skip(by: Double(offset) / 1e6))
        case .setPosition(let trackID, let microseconds):
            // A stale track id or a position outside the track does nothing, by the spec.
            let state = model.current
            guard let entry = state.entry, trackID == MPRISModel.trackID(entry), microseconds >= 0,
                  microseconds <= MPRISModel.microseconds(state.info?.duration ?? 0) else { break }
            player.send(.seek(to: Double(microseconds) / 1e6))
        case .openURI(let text):
            return add(text, at: .end, play: true, player: player, model: model)
        case .setVolume(let volume):
            guard volume.isFinite else { return .invalidArguments("Volume must be a number") }
            player.send(.setVolume(max(0, volume)))
        case .setRate(let rate):
            if rate == 0 { player.send(.pause) }  // the spec: a rate of 0 pauses; others are clamped to 1.0
        case .setLoopStatus(let text):
            guard let mode = LoopMode(rawValue: text) else {
                return .invalidArguments("LoopStatus is None, Track or Playlist, not '\(text.prefix(40))'")
            }
            player.send(.setLoop(mode))
        case .setShuffle(let on):
            player.send(.setShuffle(on))
        case .getTracksMetadata(let ids):
            return .reply(model.metadata(of: model.entries(trackIDs: ids)))
        case .addTrack(let text, let after, let setAsCurrent):
            let placement: LibraryActor.Placement
            if after == MPRISModel.noTrack {
                placement = .start
            } else if let entry = model.entry(trackID: after) {
                placement = .after(entry.id)
            } else {
                return .invalidArguments("AfterTrack \(after.prefix(80)) is not in the track list")
            }
            return add(text, at: placement, play: setAsCurrent, player: player, model: model)
        case .removeTrack(let id):
            guard let entry = model.entry(trackID: id) else { return .invalidArguments("\(id.prefix(80)) is not in the track list") }
            player.send(.remove(entry.id))
        case .goTo(let id):
            guard let entry = model.entry(trackID: id) else { return .invalidArguments("\(id.prefix(80)) is not in the track list") }
            player.send(.playEntry(entry.id, at: 0))
        case .activatePlaylist(let id):
            guard let catalog = playlists, let number = MPRISModel.libraryID(ofPlaylist: id),
                  let playlist = model.current.playlists.first(where: { $0.id == id }) else {
                return .invalidArguments("there is no playlist \(id.prefix(80))")
            }
            return .later {
                do {
                    try await catalog.activate(libraryID: number)
                } catch {
                    return .failed(name: "org.cloudplayerd.Error.CannotPlay", message: "\(error)")
                }
                _ = model.update { $0.activePlaylist = playlist }
                return .done
            }
        case .getPlaylists(let index, let maxCount, _, let reverse):
            // Alphabetical is the one ordering offered; the model keeps them in it.
            var playlists = model.current.playlists
            if reverse { playlists.reverse() }
            let start = min(Int(index), playlists.count)
            return .reply(.playlists(Array(playlists[start...].prefix(Int(maxCount)))))
        }
        return .done
    }

    /// OpenUri and AddTrack: refuses a URI the loader cannot fetch at once; otherwise probes the
    /// file off the bus thread, queues it and maybe plays it, and only then replies — so a
    /// missing or non-audio file is an error for the caller, not a silent skip later.
    private static func add(_ text: String, at placement: LibraryActor.Placement, play: Bool,
                            player: Player, model: MPRISModel) -> BusOutcome {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), model.uriSchemes.contains(scheme) else {
            return .failed(name: "org.freedesktop.DBus.Error.NotSupported",
                           message: "cannot open this URI: cloudplayerd opens \(model.uriSchemes.joined(separator: ", ")) URIs")
        }
        // A URI on the bus is seen by every client (the track list, Metadata): no secrets in it.
        guard url.user == nil && url.password == nil else {
            return .failed(name: "org.freedesktop.DBus.Error.InvalidArgs",
                           message: "credentials in a URI are not accepted over D-Bus; name the server in the config file")
        }
        return .later {
            do {
                _ = try await player.probe(url)
            } catch {
                return .failed(name: "org.cloudplayerd.Error.CannotPlay", message: "cannot play \(url.lastPathComponent): \(error)")
            }
            let added = await player.enqueue([url], at: placement)
            if play { await player.playNow(added[0].id) }
            return .done
        }
    }

    /// TrackRemoved for each entry gone, TrackAdded (after its neighbour) for each new one.
    private static func trackListSignals(from before: [QueueEntry], to after: [QueueEntry],
                                         model: MPRISModel) -> [(String, [BusValue])] {
        let kept = Set(after.map(\.id))
        let old = Set(before.map(\.id))
        var signals = before.filter { !kept.contains($0.id) }.map { ("TrackRemoved", [BusValue.objectPath(MPRISModel.trackID($0))]) }
        for (index, entry) in after.enumerated() where !old.contains(entry.id) {
            let neighbour = index == 0 ? MPRISModel.noTrack : MPRISModel.trackID(after[index - 1])
            guard case .dictionaries(let metadata) = model.metadata(of: [entry]) else { continue }
            signals.append(("TrackAdded", [.dictionary(metadata[0]), .objectPath(neighbour)]))
        }
        return signals
    }

    private static func hasNext(_ model: MPRISModel, _ player: Player) async -> Bool {
        guard let entry = model.current.entry else { return false }
        return await player.library.entry(after: entry.id) != nil
    }

    /// Keeps the model current and announces what changed.
    private static func feed(_ model: MPRISModel, from events: AsyncStream<PlayerEvent>, player: Player,
                             object: MPRISObject, connection: BusConnection) async {
        let refresher = Task {
            // While playing, re-anchor the position on the output's now and then.
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(2))
                let sequence = model.current.anchorSequence
                if let position = await player.position() {
                    _ = model.update {
                        guard $0.anchorSequence == sequence else { return }  // an event re-anchored meanwhile
                        $0.anchorSeconds = position.seconds
                        $0.anchorTime = .now
                    }
                }
            }
        }
        defer { refresher.cancel() }
        for await event in events {
            var seeked: Double?
            var changes: [String: [String]]
            switch event {
            case .statusChanged(let status):
                let position = await player.position()
                changes = model.update {
                    $0.status = status
                    $0.anchorSeconds = position?.seconds ?? 0
                    $0.anchorTime = .now
                    $0.anchorSequence += 1
                }
            case .trackStarted(let entry, let info, let seconds):
                let hasNext = await player.library.entry(after: entry.id) != nil
                changes = model.update {
                    if $0.entry != entry { $0.artURL = nil }
                    $0.entry = entry
                    $0.info = info
                    var kept = info
                    kept.tags.artwork = nil
                    $0.heard[entry.id] = kept
                    $0.anchorSeconds = seconds
                    $0.anchorTime = .now
                    $0.anchorSequence += 1
                    $0.canGoNext = hasNext
                    $0.canGoPrevious = true
                }
                // What the track list said of it (its file name) gives way to its tags.
                let metadata = model.metadata(of: [entry])
                if case .dictionaries(let fields) = metadata, let first = fields.first {
                    connection.perform { bus in
                        object.emit(on: bus, interface: MPRISModel.trackListInterface, signal: "TrackMetadataChanged",
                                    [.objectPath(MPRISModel.trackID(entry)), .dictionary(first)])
                    }
                }
            case .seeked(let seconds):
                seeked = seconds
                changes = model.update {
                    $0.anchorSeconds = seconds
                    $0.anchorTime = .now
                    $0.anchorSequence += 1
                }
            case .volumeChanged(let volume):
                changes = model.update { $0.volume = volume }
            case .queueChanged(let entries):
                let before = model.current.tracks
                let queued = Set(entries.map(\.id))
                changes = model.update {
                    $0.tracks = entries
                    $0.heard = $0.heard.filter { queued.contains($0.key) }
                }
                let hasNext = await Self.hasNext(model, player)
                changes.merge(model.update { $0.canGoNext = hasNext }) { $0 + $1 }
                let signals = Self.trackListSignals(from: before, to: entries, model: model)
                connection.perform { bus in
                    for (member, arguments) in signals {
                        object.emit(on: bus, interface: MPRISModel.trackListInterface, signal: member, arguments)
                    }
                }
            case .loopChanged(let mode):
                let hasNext = await Self.hasNext(model, player)
                changes = model.update {
                    $0.loop = mode
                    $0.canGoNext = hasNext
                }
            case .shuffleChanged(let on):
                let hasNext = await Self.hasNext(model, player)
                changes = model.update {
                    $0.shuffle = on
                    $0.canGoNext = hasNext
                }
            case .currentChanged(let entry):
                var hasNext = false
                if let entry { hasNext = await player.library.entry(after: entry.id) != nil }
                changes = model.update {
                    $0.entry = entry
                    $0.info = nil
                    $0.artURL = nil
                    $0.canGoNext = hasNext
                }
            case .artworkReady(let entry, let url):
                changes = model.update { if $0.entry == entry { $0.artURL = url } }
            case .trackEnded, .trackFailed, .queueFinished, .outputFailed, .buffering:
                continue
            }
            let announced = changes
            let jump = seeked
            connection.perform { bus in
                for (interface, names) in announced { object.emitChanged(on: bus, interface: interface, names: names) }
                if let jump {
                    object.emit(on: bus, interface: MPRISModel.playerInterface, signal: "Seeked",
                                [.int64(MPRISModel.microseconds(jump))])
                }
            }
        }
    }
}

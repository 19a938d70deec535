import Base
import DBus
import FoundationEssentials
import Glibc
import Logging
import Model
import Playback
import ServiceLifecycle

/// The player as an MPRIS 2.2 media player on a bus connection.
///
/// What it shows is projected from the player's events: each carries the whole state, which
/// becomes `MPRISState`, and whatever differs from the last one is announced — nothing is asked
/// of the player. Method calls and property writes become player commands.
///
/// A `Service`: `run()` follows the player until the daemon stops; whoever owns the connection
/// closes it.
package final class MPRISService: Service {
    /// Yields when a client calls `Quit`.
    package let quitRequests: AsyncStream<Void>
    private let object: BusObject
    private let state: Locked<MPRISState>
    private let library: any MPRISLibrary
    private let events: AsyncStream<PlayerEvent>

    /// Registers the MPRIS object on `connection` (its owner then takes the bus name); MPRIS
    /// Playlists offers the `library`'s playlists, and tracks clients add come in by `intake`.
    package init(player: Player, library: any MPRISLibrary, intake: QueueIntake, connection: BusConnection) async throws {
        let state = Locked(MPRISState())
        let (quitRequests, quit) = AsyncStream.makeStream(of: Void.self)
        let interfaces = Self.interfaces(player: player, library: library, intake: intake, state: state, quit: quit)
        let object = BusObject(path: MPRIS.path, interfaces: interfaces, connection: connection)
        try await object.register()
        self.quitRequests = quitRequests
        self.object = object
        self.state = state
        self.library = library
        // Subscribed now, so no change is missed before `run()`.
        events = player.subscribe()
    }

    /// Shows the library's playlists, then follows the player until the daemon stops.
    package func run() async {
        refreshPlaylists()
        await Self.follow(events.cancelOnGracefulShutdown(), state: state, object: object)
    }

    /// Reads the library's playlists again and announces the new count.
    package func refreshPlaylists() {
        Task { [state, object, library] in
            // Without case (no ICU collation: an accented initial sorts after the plain letters).
            let sorted = await library.playlists().sorted { ($0.name.lowercased(), $0.name) < ($1.name.lowercased(), $1.name) }
            Self.update(state, object) { $0.playlists = sorted }
        }
    }

    /// Applies `change` and announces the properties it changed.
    private static func update(_ state: Locked<MPRISState>, _ object: BusObject, _ change: (inout MPRISState) -> Void) {
        let (before, after) = state.withLock { state in
            let before = state
            change(&state)
            return (before, state)
        }
        for (interface, names) in MPRISProperty.changes(from: before, to: after) { object.announce(names, of: interface) }
    }

    /// Keeps the state current from the player's events and announces what changed.
    private static func follow(_ events: some AsyncSequence<PlayerEvent, Never>, state: Locked<MPRISState>, object: BusObject) async {
        for await event in events {
            let before = state.withLock { $0 }
            var after = before
            after.player = event.snapshot
            switch event.change {
            case .queueChanged(let edit) where edit.added.count + edit.removed.count <= Self.signalsPerEdit:
                emitTrackListChanges(edit, in: after, object)
            case .queueChanged, .queueReplaced:
                // One signal for the whole list, however long, instead of one per track: a queue
                // replaced, or a folder of 10,000 added (the spec leaves it to the player when a
                // change is "invasive enough").
                object.emit(MPRIS.trackListReplaced, of: MPRIS.trackList,
                            after.player.queue.entries.map { BusObjectPath(MPRISState.trackID($0)) },
                            BusObjectPath(after.player.current.map(MPRISState.trackID) ?? MPRIS.noTrack))
            case .trackStarted(let entry, _, _):
                // What the track list said of it is filled in with what the track's own tags say.
                if let started = after.player.queue.entry(id: entry.id),
                   before.player.queue.entry(id: entry.id)?.metadata != started.metadata {
                    object.emit(MPRIS.trackMetadataChanged, of: MPRIS.trackList,
                                BusObjectPath(MPRISState.trackID(started)), after.metadata(of: started))
                }
            case .cacheChanged(let entries):
                for entry in entries {
                    guard let now = after.player.queue.entry(id: entry.id) else { continue }
                    object.emit(MPRIS.trackMetadataChanged, of: MPRIS.trackList, BusObjectPath(MPRISState.trackID(now)), after.metadata(of: now))
                }
            default:
                break
            }
            update(state, object) { $0.player = event.snapshot }
            if case .seeked(let seconds) = event.change {
                object.emit(MPRIS.seeked, of: MPRIS.player, MPRIS.microseconds(seconds))
            }
        }
    }

    /// Entries added or removed by one edit that are told one by one (TrackAdded, TrackRemoved);
    /// more, and the whole list is (TrackListReplaced).
    static let signalsPerEdit = 100

    /// TrackRemoved for each entry gone, TrackAdded (after its neighbour) for each new one — from
    /// the edit, in proportion to it. Entries that only moved are told by `Tracks`' invalidation.
    private static func emitTrackListChanges(_ edit: QueueEdit, in after: MPRISState, _ object: BusObject) {
        for entry in edit.removed {
            object.emit(MPRIS.trackRemoved, of: MPRIS.trackList, BusObjectPath(MPRISState.trackID(entry)))
        }
        let entries = after.player.queue.entries
        var neighbour = edit.from > 0 && edit.from <= entries.count ? MPRISState.trackID(entries[edit.from - 1]) : MPRIS.noTrack
        for entry in edit.added {
            object.emit(MPRIS.trackAdded, of: MPRIS.trackList, after.metadata(of: entry), BusObjectPath(neighbour))
            neighbour = MPRISState.trackID(entry)
        }
    }

    // MARK: Requests

    /// The four interfaces: their methods turn calls into player commands (on the bus thread,
    /// so they only send, never wait), their properties read the state.
    private static func interfaces(player: Player, library: any MPRISLibrary, intake: QueueIntake, state: Locked<MPRISState>,
                                   quit: AsyncStream<Void>.Continuation) -> [BusInterface] {
        let root = BusInterface(MPRIS.root)
        root.method(MPRIS.raise) { BusNothing() }
        root.method(MPRIS.quit) {
            quit.yield()
            return BusNothing()
        }

        let controls = BusInterface(MPRIS.player)
        for (method, command) in [(MPRIS.next, PlayerCommand.next), (MPRIS.previous, .previous), (MPRIS.pause, .pause),
                                  (MPRIS.playPause, .playPause), (MPRIS.stop, .stop), (MPRIS.play, .play)] {
            controls.method(method) {
                player.send(command)
                return BusNothing()
            }
        }
        controls.method(MPRIS.seek) { offset in
            player.send(.skip(by: Double(offset) / 1e6))
            return BusNothing()
        }
        controls.method(MPRIS.setPosition) { trackID, microseconds in
            // A stale track id or a position outside the track does nothing, by the spec.
            let snapshot = state.withLock { $0.player }
            if let entry = snapshot.current, trackID.path == MPRISState.trackID(entry), microseconds >= 0,
               microseconds <= MPRIS.microseconds(snapshot.currentInfo?.duration ?? 0) {
                player.send(.seek(to: Double(microseconds) / 1e6))
            }
            return BusNothing()
        }
        controls.method(MPRIS.openURI) { text in
            try await add(text, at: .end, play: true, intake: intake)
        }
        controls.signal(MPRIS.seeked)

        let trackList = BusInterface(MPRIS.trackList)
        trackList.method(MPRIS.getTracksMetadata) { ids in
            let current = state.withLock { $0 }
            return current.entries(trackIDs: ids.map(\.path)).map { current.metadata(of: $0) }
        }
        trackList.method(MPRIS.addTrack) { text, after, setAsCurrent in
            let placement: PlayQueue.Placement
            if after.path == MPRIS.noTrack {
                placement = .start
            } else if let entry = state.withLock({ $0.entry(trackID: after.path) }) {
                placement = .after(entry.id)
            } else {
                throw BusCallError.invalidArguments("AfterTrack \(after.path.prefix(80)) is not in the track list")
            }
            return try await add(text, at: placement, play: setAsCurrent, intake: intake)
        }
        trackList.method(MPRIS.removeTrack) { id in
            let removed = try entry(id, in: state)
            player.send(.remove(removed.id))
            return BusNothing()
        }
        trackList.method(MPRIS.goTo) { id in
            let chosen = try entry(id, in: state)
            player.send(.playEntry(chosen.id, at: 0))
            return BusNothing()
        }
        trackList.signal(MPRIS.trackListReplaced)
        trackList.signal(MPRIS.trackAdded)
        trackList.signal(MPRIS.trackRemoved)
        trackList.signal(MPRIS.trackMetadataChanged)

        let playlists = BusInterface(MPRIS.playlists)
        playlists.method(MPRIS.activatePlaylist) { id in
            guard let playlist = state.withLock({ $0.playlists.first { $0.id == id.path } }),
                  let number = playlist.libraryID else {
                throw BusCallError.invalidArguments("there is no playlist \(id.path.prefix(80))")
            }
            do {
                try await library.activate(libraryID: number)
            } catch let refusal as QueueRefusal {
                throw refusal.busError
            } catch {
                throw BusCallError(name: "org.cloudplayerd.Error.CannotPlay", message: "\(error)")
            }
            return BusNothing()
        }
        playlists.method(MPRIS.getPlaylists) { index, maxCount, _, reverse in
            // Alphabetical is the one ordering offered; the state keeps them in it.
            var listed = state.withLock { $0.playlists }
            if reverse { listed.reverse() }
            let start = min(Int(index), listed.count)
            return Array(listed[start...].prefix(Int(maxCount)))
        }
        playlists.signal(MPRIS.playlistChanged)

        let interfaces = [root, controls, trackList, playlists]
        for property in MPRISProperty.all {
            guard let interface = interfaces.first(where: { $0.name == property.interface }) else { continue }
            property.add(to: interface, state: state, player: player)
        }
        return interfaces
    }

    /// The queue entry a track id names; an id not in the track list is refused.
    private static func entry(_ id: BusObjectPath, in state: Locked<MPRISState>) throws -> QueueEntry {
        guard let entry = state.withLock({ $0.entry(trackID: id.path) }) else {
            throw BusCallError.invalidArguments("\(id.path.prefix(80)) is not in the track list")
        }
        return entry
    }

    /// OpenUri and AddTrack: the intake checks the URI, probes the file and queues it; a refusal
    /// is the D-Bus error it names.
    private static func add(_ text: String, at placement: PlayQueue.Placement, play: Bool,
                            intake: QueueIntake) async throws -> BusNothing {
        do {
            try await intake.add(uri: text, at: placement, play: play)
        } catch let refusal as QueueRefusal {
            throw refusal.busError
        }
        return BusNothing()
    }
}

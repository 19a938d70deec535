import Base
import Logging
import NIOCore
import NIOPosix
import Playback
import ServiceLifecycle

/// The MPD protocol server: listens on each configured address (TCP, unix socket), serves each
/// client with an `MPDConnection`, and keeps the server's state from the player's events (as
/// `MPRISService` does) and the library's changes, waking clients' `idle`s.
///
/// A `Service`: `run()` serves until a graceful shutdown, then closes the listeners and every
/// client's connection at once — a client that reads nothing or idles for ever holds nothing up.
/// An address that cannot be bound (a port a real MPD holds) is said once in the journal and the
/// others are served; the daemon runs on. A reload (`reload`) serves the addresses it adds and
/// closes the listeners of those it drops; clients connected keep their connections.
package final class MPDServer: Service {
    /// Longest command line read (MPD's input buffer is 4 KiB; filter expressions and long paths
    /// need more, so: 64 KiB, still bounded).
    package static let lineLimit = 64 * 1024

    let context: MPDContext
    private let events: AsyncStream<PlayerEvent>
    let logger = Logger(label: "cloudplayerd.mpd")
    let channels = Locked(OpenChannels())
    /// Who is connected, counted against `max_connections`.
    let admission = MPDAdmission()
    /// Wrong passwords, counted by uid or machine.
    let guesses = MPDPasswordGuard()
    let nextID = Locked<UInt64>(0)
    /// Where to listen, each time the config says it: `run()` follows.
    private let addresses: AsyncStream<[MPDAddress]>
    private let addressesChosen: AsyncStream<[MPDAddress]>.Continuation

    package init(context: MPDContext) {
        self.context = context
        // Subscribed now, so no change is missed before `run()`.
        events = context.player.subscribe()
        (addresses, addressesChosen) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
        addressesChosen.yield(context.settings.listen)
    }

    /// Takes a reloaded `[mpd]`: its password and permissions for connections from now on, its
    /// addresses served (and those no longer listed closed) as soon as `run()` sees them.
    package func reload(_ settings: MPDSettings) {
        context.replace(settings)
        if settings.password == nil { closeReachable() }
        addressesChosen.yield(settings.listen)
    }

    package func run() async throws {
        let library = context.library.changes()
        await withTaskCancellationOrGracefulShutdownHandler {
            await withDiscardingTaskGroup { group in
                // Both end at a graceful shutdown, before the player's events end (the player
                // stops after this server).
                group.addTask { await self.follow(self.events.cancelOnGracefulShutdown()) }
                group.addTask { await self.context.library.maintain() }
                group.addTask {
                    for await changes in library.cancelOnGracefulShutdown() { self.context.idle.notify(changes) }
                }
                for await wanted in addresses.cancelOnGracefulShutdown() {
                    for (address, turn) in adopt(wanted) {
                        group.addTask { await self.serve(address, turn: turn) }
                    }
                }
                // The player's events end when it shuts down; listeners end when closed.
            }
        } onCancelOrGracefulShutdown: {
            self.closeAll()
        }
    }

    /// The addresses of `wanted` not served yet, each with its turn (a number of its own), and
    /// the listeners of those no longer wanted closed.
    private func adopt(_ wanted: [MPDAddress]) -> [(MPDAddress, UInt64)] {
        let (start, dropped) = channels.withLock { open -> ([(MPDAddress, UInt64)], [any Channel]) in
            guard !open.closed else { return ([], []) }
            var dropped: [any Channel] = []
            for address in Array(open.serving.keys) where !wanted.contains(address) {
                open.serving[address] = nil
                dropped += open.listeners.removeValue(forKey: address) ?? []
            }
            var start: [(MPDAddress, UInt64)] = []
            for address in Set(wanted) where open.serving[address] == nil {
                open.turns += 1
                open.serving[address] = open.turns
                start.append((address, open.turns))
            }
            return (start, dropped)
        }
        for listener in dropped { listener.close(promise: nil) }
        return start
    }

    /// Every listener and client closed: `run()` ends as soon as they have.
    private func closeAll() {
        let open = channels.withLock { open in
            open.closed = true
            defer { open.all = [:] }
            return Array(open.all.values)
        }
        for channel in open { channel.close(promise: nil) }
    }

    /// Registers a channel to be closed at shutdown; false (and closes it) if that has begun.
    func keep(_ channel: any Channel) -> Bool {
        let accepted = channels.withLock { open in
            guard !open.closed else { return false }
            open.all[ObjectIdentifier(channel)] = channel
            return true
        }
        if !accepted { channel.close(promise: nil) }
        return accepted
    }

    func forget(_ channel: any Channel) {
        channels.withLock { _ = $0.all.removeValue(forKey: ObjectIdentifier(channel)) }
    }

    // MARK: Following the player

    private func follow(_ events: some AsyncSequence<PlayerEvent, Never>) async {
        for await event in events {
            let before = context.update { state -> PlayerSnapshot in
                let before = state.snapshot
                var edit: QueueEdit?
                if case .queueChanged(let change) = event.change { edit = change }
                if event.snapshot.serial >= before.serial {
                    state.follow(event.snapshot, edit: edit)
                } else if let edit {
                    state.place(edit, of: event.snapshot.queue.revision)
                }
                return before
            }
            context.idle.notify(MPDEvents.subsystems(for: event.change, before: before, after: event.snapshot))
        }
    }
}

/// The channels to close at shutdown, and the listeners a reload may close.
struct OpenChannels {
    var all: [ObjectIdentifier: any Channel] = [:]
    var closed = false
    /// The addresses served (or being bound), each by its turn.
    var serving: [MPDAddress: UInt64] = [:]
    var turns: UInt64 = 0
    /// The listeners bound, by address (a name may stand for several addresses).
    var listeners: [MPDAddress: [any Channel]] = [:]
}

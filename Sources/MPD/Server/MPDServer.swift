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
/// others are served; the daemon runs on.
package final class MPDServer: Service {
    /// Longest command line read (MPD's input buffer is 4 KiB; filter expressions and long paths
    /// need more, so: 64 KiB, still bounded).
    package static let lineLimit = 64 * 1024

    let context: MPDContext
    private let events: AsyncStream<PlayerEvent>
    private let logger = Logger(label: "cloudplayerd.mpd")
    private let channels = Locked(OpenChannels())
    private let nextID = Locked<UInt64>(0)

    package init(context: MPDContext) {
        self.context = context
        // Subscribed now, so no change is missed before `run()`.
        events = context.player.subscribe()
    }

    package func run() async throws {
        let library = context.library.changes()
        await withTaskCancellationOrGracefulShutdownHandler {
            await withDiscardingTaskGroup { group in
                // Both end at a graceful shutdown, before the player's events end (the player
                // stops after this server).
                group.addTask { await self.follow(self.events.cancelOnGracefulShutdown()) }
                group.addTask {
                    for await changes in library.cancelOnGracefulShutdown() { self.context.idle.notify(changes) }
                }
                for address in context.settings.listen {
                    group.addTask { await self.serve(address) }
                }
                // The player's events end when it shuts down; listeners end when closed.
            }
        } onCancelOrGracefulShutdown: {
            self.closeAll()
        }
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
    private func keep(_ channel: any Channel) -> Bool {
        let accepted = channels.withLock { open in
            guard !open.closed else { return false }
            open.all[ObjectIdentifier(channel)] = channel
            return true
        }
        if !accepted { channel.close(promise: nil) }
        return accepted
    }

    private func forget(_ channel: any Channel) {
        channels.withLock { _ = $0.all.removeValue(forKey: ObjectIdentifier(channel)) }
    }

    // MARK: Listening

    private func serve(_ address: MPDAddress) async {
        let listener: NIOAsyncChannel<NIOAsyncChannel<MPDLine, ByteBuffer>, Never>
        do {
            listener = try await MPDListener.bind(address, lineLimit: Self.lineLimit)
        } catch {
            logger.warning("MPD: cannot listen on \(address): \(error); serving without it")
            return
        }
        guard keep(listener.channel) else { return }
        logger.info("MPD: listening on \(address)")
        defer { forget(listener.channel) }
        do {
            try await listener.executeThenClose { clients in
                try await withThrowingDiscardingTaskGroup { group in
                    for try await client in clients {
                        group.addTask { await self.serve(client, local: address.isLocal) }
                    }
                }
            }
        } catch {
            logger.debug("MPD: listener on \(address) ended: \(error)")
        }
    }

    private func serve(_ client: NIOAsyncChannel<MPDLine, ByteBuffer>, local: Bool) async {
        guard keep(client.channel) else { return }
        defer { forget(client.channel) }
        let id = nextID.withLock { value in
            value += 1
            return value
        }
        var session = MPDSession(id: id, permissions: context.initialPermissions)
        session.local = local
        await MPDConnection(channel: client, context: context, session: session, logger: logger).run()
    }

    // MARK: Following the player

    private func follow(_ events: some AsyncSequence<PlayerEvent, Never>) async {
        for await event in events {
            let before = context.update { state -> PlayerSnapshot in
                let before = state.snapshot
                if event.snapshot.serial >= before.serial { state.follow(event.snapshot) }
                if case .trackFailed(let entry, let error) = event.change {
                    state.error = "\(entry.displayName): \(error)"
                } else if case .trackStarted = event.change {
                    state.error = nil
                }
                return before
            }
            context.idle.notify(MPDEvents.subsystems(for: event.change, before: before, after: event.snapshot))
        }
    }
}

/// The channels to close at shutdown.
private struct OpenChannels {
    var all: [ObjectIdentifier: any Channel] = [:]
    var closed = false
}

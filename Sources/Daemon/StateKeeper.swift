import Base
import Foundation
import Logging
import Model
import Playback

/// Keeps the saved playback state current, so a restart — or a crash — comes back where the
/// listener was: within a second of any change the player announces, and every few seconds
/// while playing (the position moves). At start it restores the state, paused.
package final class StateKeeper: Sendable {
    /// While playing, the position is saved this often (each save is an fsync).
    static let positionEvery = Duration.seconds(3)

    private let player: Player
    private let instance: String?
    /// Set by an event, cleared by the save it causes.
    private let changed = Locked(false)
    private let watcher: Task<Void, Never>
    private let saver: Task<Void, Never>
    private let logger = Logger(label: "cloudplayerd.state")

    package init(player: Player, instance: String?) {
        self.player = player
        self.instance = instance
        let events = player.subscribe()
        let changed = self.changed
        watcher = Task {
            for await event in events {
                switch event {
                case .buffering, .artworkReady, .trackEnded: continue
                default: changed.withLock { $0 = true }
                }
            }
        }
        saver = Task { [player, instance, logger, changed] in
            var lastSaved: PlaybackState?
            var lastPositionSave = ContinuousClock.now
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(1))
                let playing = await player.status == .playing
                let due = changed.withLock { flag in defer { flag = false }; return flag }
                    || (playing && lastPositionSave.duration(to: .now) >= Self.positionEvery)
                guard due else { continue }
                let state = await Self.snapshot(of: player)
                guard state != lastSaved else { continue }
                do {
                    try await player.library.saveState(state, instance: instance)
                    lastSaved = state
                    lastPositionSave = .now
                } catch {
                    logger.warning("playback state not saved", metadata: ["reason": "\(error)"])
                }
            }
        }
    }

    /// Stops watching and saves once more (on SIGTERM).
    package func stop() async {
        watcher.cancel()
        saver.cancel()
        await saver.value
        do {
            try await player.library.saveState(await Self.snapshot(of: player), instance: instance)
        } catch {
            logger.warning("playback state not saved", metadata: ["reason": "\(error)"])
        }
    }

    static func snapshot(of player: Player) async -> PlaybackState {
        let library = player.library
        let entries = await library.entries
        let current = await player.current
        let position = await player.position()?.seconds ?? 0
        return PlaybackState(queue: entries.map(\.url.absoluteString),
                             current: current.flatMap { entry in entries.firstIndex { $0.id == entry.id } },
                             position: position.isFinite ? max(0, position) : 0, volume: await player.volume,
                             loop: await library.loop.rawValue, shuffle: await library.shuffle)
    }

    /// Puts the saved queue back, and the current track paused at its saved place.
    package static func restore(into player: Player, instance: String?) async {
        guard let state = await player.library.loadState(instance: instance) else { return }
        let urls = state.queue.compactMap { URL(string: $0) }
        guard !urls.isEmpty else { return }
        let added = await player.enqueue(urls)
        if state.volume.isFinite { await player.perform(.setVolume(min(max(state.volume, 0), 1.5))) }
        if let mode = LoopMode(rawValue: state.loop) { await player.perform(.setLoop(mode)) }
        if state.shuffle { await player.perform(.setShuffle(true)) }
        if let index = state.current, added.indices.contains(index) {
            await player.perform(.cue(added[index].id, at: state.position))
        }
    }
}

import Model
import Playback

/// Playing: `play`/`playid`/`pause`/`stop`/`next`/`previous`, seeking, the volume and the
/// options (`repeat`, `random`, `single`, `consume`). Each becomes a player command, carried out
/// before the answer (so a client's next `status` sees it).
package enum PlaybackCommands: MPDCommandFamily {
    package static let commands: [String: MPDCommand] = [
        "play": MPDCommand(.control, arguments: 0...1) { call in
            guard call.argument(0) != nil, try call.int(0) >= 0 else {
                await call.context.perform(.play)
                return
            }
            await call.context.perform(.playNow(try entry(at: try call.unsigned(0), call).id))
        },
        "playid": MPDCommand(.control, arguments: 0...1) { call in
            guard call.argument(0) != nil, try call.int(0) >= 0 else {
                await call.context.perform(.play)
                return
            }
            await call.context.perform(.playNow(try entry(id: try call.unsigned(0), call).id))
        },
        "pause": MPDCommand(.control, arguments: 0...1) { call in
            guard call.argument(0) != nil else {
                await call.context.perform(.playPause)
                return
            }
            let pause = try call.bool(0)
            // `pause 0` resumes a pause; it does not start a stopped player (as MPD).
            guard pause || call.context.snapshot.status == .paused else { return }
            await call.context.perform(pause ? .pause : .play)
        },
        "stop": MPDCommand(.control) { call in await call.context.perform(.stop) },
        "next": MPDCommand(.control) { call in await call.context.perform(.next) },
        "previous": MPDCommand(.control) { call in await call.context.perform(.previous) },
        "seek": MPDCommand(.control, arguments: 2...2) { call in
            try await seek(try entry(at: try call.unsigned(0), call), to: try call.seconds(1), call)
        },
        "seekid": MPDCommand(.control, arguments: 2...2) { call in
            try await seek(try entry(id: try call.unsigned(0), call), to: try call.seconds(1), call)
        },
        "seekcur": MPDCommand(.control, arguments: 1...1) { call in
            let text = call.arguments[0]
            let seconds = try call.seconds(0)
            guard call.context.snapshot.status != .stopped else { throw MPDError.notPlaying }
            await call.context.perform(text.hasPrefix("+") || text.hasPrefix("-") ? .skip(by: seconds) : .seek(to: max(0, seconds)))
        },
        "setvol": MPDCommand(.control, arguments: 1...1) { call in
            let percent = try call.unsigned(0)
            guard percent <= 100 else { throw MPDError(.argument, "Number too large: \(percent)") }
            await call.context.perform(.setVolume(Double(percent) / 100))
        },
        "volume": MPDCommand(.control, arguments: 1...1) { call in
            let change = try call.int(0)
            guard (-100...100).contains(change) else { throw MPDError(.argument, "Number too large: \(change)") }
            let now = MPDVolume.percent(call.context.snapshot.volume)
            await call.context.perform(.setVolume(Double(min(100, max(0, now + change))) / 100))
        },
        "getvol": MPDCommand(.read) { call in
            call.response.field("volume", MPDVolume.percent(call.context.snapshot.volume))
        },
        "repeat": MPDCommand(.control, arguments: 1...1) { call in
            let on = try call.bool(0)
            let loop = call.context.snapshot.queue.loop
            if on, loop == .none { await call.context.perform(.setLoop(.playlist)) }
            if !on, loop != .none { await call.context.perform(.setLoop(.none)) }
        },
        "random": MPDCommand(.control, arguments: 1...1) { call in
            await call.context.perform(.setShuffle(try call.bool(0)))
        },
        "single": MPDCommand(.control, arguments: 1...1) { call in try await single(call) },
        "consume": MPDCommand(.control, arguments: 1...1) { call in
            // The player has no consume mode (played tracks stay queued).
            guard call.arguments[0] == "0" else {
                _ = try call.bool(0)
                throw MPDError(.system, "consume mode is not supported")
            }
        },
        "crossfade": MPDCommand(.control, arguments: 1...1) { call in
            guard try call.unsigned(0) == 0 else { throw MPDError(.system, "crossfade is not supported") }
        },
        // `[playback] replaygain` from the next track on, kept over reloads and restarts
        // (Cantata sends `replay_gain_status` at every track change: an ACK is its red bar).
        "replay_gain_mode": MPDCommand(.control, arguments: 1...1) { call in
            guard let mode = ReplayGainSettings.Mode(rawValue: call.arguments[0]) else {
                throw MPDError(.argument, "Unrecognized replay gain mode")
            }
            await call.context.perform(.setReplayGain(mode))
        },
        "replay_gain_status": MPDCommand(.read) { call in
            call.response.field("replay_gain_mode", call.context.snapshot.replayGainMode.rawValue)
        },
    ]

    /// The entry at a queue position, or MPD's `Bad song index`.
    static func entry(at position: Int, _ call: MPDCall) throws(MPDError) -> QueueEntry {
        let entries = call.context.snapshot.queue.entries
        guard entries.indices.contains(position) else { throw .badSongIndex }
        return entries[position]
    }

    /// The entry with a queue id, or MPD's `No such song`.
    static func entry(id: Int, _ call: MPDCall) throws(MPDError) -> QueueEntry {
        guard let entry = call.context.snapshot.queue.entry(id: UInt64(id)) else { throw .noSuchSong }
        return entry
    }

    /// `seek`/`seekid`: within the current song, or that song played from there.
    private static func seek(_ entry: QueueEntry, to seconds: Double, _ call: MPDCall) async throws {
        guard seconds >= 0 else { throw MPDError(.argument, "Negative value not allowed: \(seconds)") }
        let snapshot = call.context.snapshot
        if snapshot.current?.id == entry.id, snapshot.status != .stopped {
            await call.context.perform(.seek(to: seconds))
        } else {
            await call.context.perform(.playEntry(entry.id, at: seconds))
            if call.context.snapshot.status != .playing { await call.context.perform(.play) }
        }
    }

    /// `single 0|1|oneshot`, on the player's options (see `MPDOptions`).
    private static func single(_ call: MPDCall) async throws {
        let snapshot = call.context.snapshot
        switch call.arguments[0] {
        case "0":
            if snapshot.queue.loop == .track { await call.context.perform(.setLoop(.playlist)) }
            if snapshot.stopsAfterCurrent { await call.context.perform(.stopAfterCurrent(false)) }
        case "1":
            if snapshot.queue.loop != .none {
                await call.context.perform(.setLoop(.track))
            } else {
                await call.context.perform(.stopAfterCurrent(true))
            }
        case "oneshot":
            await call.context.perform(.stopAfterCurrent(true))
        default:
            throw MPDError(.argument, "Unrecognized single mode, expected 0, 1, or oneshot")
        }
    }
}

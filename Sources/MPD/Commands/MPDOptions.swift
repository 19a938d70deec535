import Model
import Playback

/// MPD's playback options over the player's: `repeat` is a loop of the queue, `single` with
/// `repeat` a loop of the track; `single` without `repeat` (stop after this song) is the
/// player's one-shot stop-after-current, shown as `oneshot`. `random` is the player's shuffle.
/// `consume` has no counterpart: `consume 0` is accepted, anything else refused.
enum MPDOptions {
    static func single(_ snapshot: PlayerSnapshot) -> String {
        if snapshot.queue.loop == .track { return "1" }
        return snapshot.stopsAfterCurrent ? "oneshot" : "0"
    }

    static func state(_ snapshot: PlayerSnapshot) -> String {
        switch snapshot.status {
        case .playing: "play"
        case .paused: "pause"
        case .stopped: "stop"
        }
    }
}

/// Volume as MPD counts it: 0–100 for the player's 0–1.
enum MPDVolume {
    static func percent(_ level: Double) -> Int {
        Int((min(max(level, 0), 1) * 100).rounded())
    }
}

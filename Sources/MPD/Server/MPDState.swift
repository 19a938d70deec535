import Playback

/// What the server keeps between player events: the last snapshot (nothing else of the
/// player's state) and what MPD counts on top of it — the queue's version, and the version at
/// which each entry last changed (`plchanges`).
package struct MPDState: Sendable {
    package var snapshot = PlayerSnapshot()
    /// MPD's `playlist`: bumped by every change of the queue.
    package var queueVersion: UInt32 = 1
    /// The queue version at which each entry was added or moved.
    package var entryVersions: [UInt64: UInt32] = [:]
    /// The one output is on (`enableoutput`/`disableoutput`): off means muted.
    package var outputEnabled = true
    /// The volume before the output was disabled.
    package var volumeBeforeDisable: Double?
    /// The last failure of a track (`status`'s `error`), until `clearerror` or the next track.
    package var error: String?

    /// When the server started (`stats`' `uptime`).
    package let started = ContinuousClock.now
    /// Seconds played before the current stretch of playing (`stats`' `playtime`).
    package var played = 0.0
    /// Since when the player has been playing, while it is.
    package var playingSince: ContinuousClock.Instant?

    package init() {}

    package var uptime: Double { (ContinuousClock.now - started) / .seconds(1) }

    /// Seconds played since the server started.
    package func playtime(at now: ContinuousClock.Instant = .now) -> Double {
        played + (playingSince.map { (now - $0) / .seconds(1) } ?? 0)
    }

    /// A new snapshot: the queue's version moves if its entries changed; the entries that are
    /// new, or at a new place, are marked with the new version.
    package mutating func follow(_ next: PlayerSnapshot) {
        let before = snapshot.queue.entries.map(\.id)
        let after = next.queue.entries.map(\.id)
        if next.status == .playing, playingSince == nil { playingSince = .now }
        if next.status != .playing, let since = playingSince {
            played += (ContinuousClock.now - since) / .seconds(1)
            playingSince = nil
        }
        snapshot = next
        guard before != after else { return }
        queueVersion &+= 1
        if queueVersion == 0 { queueVersion = 1 }
        var versions: [UInt64: UInt32] = [:]
        for (index, id) in after.enumerated() {
            let unchanged = index < before.count && before[index] == id
            versions[id] = unchanged ? (entryVersions[id] ?? queueVersion) : queueVersion
        }
        entryVersions = versions
    }
}

import Playback

/// What the server keeps between player events: the last snapshot (nothing else of the
/// player's state) and what MPD counts on top of it — the queue's version, and where each
/// version's change began (`plchanges`).
package struct MPDState: Sendable {
    package var snapshot = PlayerSnapshot()
    /// MPD's `playlist`: bumped by every change of the queue.
    package var queueVersion: UInt32 = 1
    /// The last changes of the queue, a version each. An entry has changed since version V when
    /// it stands at or after the first position a later change began at — MPD marks entries
    /// added or moved; here, for a move, the entries after it are said too, which a client reads
    /// as changed and shows the same.
    private var edits: [VersionChange] = []
    /// Changes remembered; a client asking about an older version is told everything changed.
    static let editsKept = 1024
    /// The one output is on (`enableoutput`/`disableoutput`): off means muted.
    package var outputEnabled = true
    /// The volume before the output was disabled.
    package var volumeBeforeDisable: Double?
    /// The failure `clearerror` cleared: the player's own (`PlayerSnapshot.failure`, kept until
    /// a track starts) is `status`'s `error` unless it is this one.
    package var clearedFailure: String?

    /// The last failure of a track (`status`'s `error`), until `clearerror` or the next track.
    package var error: String? {
        snapshot.failure.flatMap { $0 == clearedFailure ? nil : $0 }
    }

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

    /// A new snapshot, and the edit that made its queue if known: the queue's version moves if
    /// its entries changed. In proportion to the edit: nothing here walks the queue.
    package mutating func follow(_ next: PlayerSnapshot, edit: QueueEdit? = nil) {
        if next.status == .playing, playingSince == nil { playingSince = .now }
        if next.status != .playing, let since = playingSince {
            played += (ContinuousClock.now - since) / .seconds(1)
            playingSince = nil
        }
        let revision = next.queue.revision
        let changed = revision != snapshot.queue.revision
        let previous = snapshot.queue.revision
        snapshot = next
        guard changed else {
            if let edit { place(edit, of: revision) }
            return
        }
        queueVersion &+= 1
        if queueVersion == 0 { queueVersion = 1 }
        edits.append(VersionChange(version: queueVersion, revisions: previous &+ 1...revision))
        if let edit { place(edit, of: revision) }
        if edits.count > Self.editsKept { edits.removeFirst(edits.count - Self.editsKept) }
    }

    /// Where the edit that made queue `revision` began, as its event says: a version taken from
    /// a command's answer first may span several edits, and begins at 0 until each has said.
    package mutating func place(_ edit: QueueEdit, of revision: UInt64) {
        guard let index = edits.lastIndex(where: { $0.revisions.contains(revision) }) else { return }
        edits[index].told(edit.from)
    }

    /// The first queue position whose entry changed after `version` (the queue's length: none).
    package func firstChange(since version: Int) -> Int {
        let count = snapshot.queue.entries.count
        // A version from before those remembered, from before a wrap of the counter, or from the
        // future: everything changed.
        guard version >= 0, version <= Int(queueVersion), let oldest = edits.first,
              version >= Int(oldest.version) - 1 || edits.count < Self.editsKept else { return 0 }
        let from = edits.lazy.filter { Int($0.version) > version }.map(\.from).min() ?? count
        return min(from, count)
    }
}

/// One version of MPD's queue: the queue revisions it took in (one, or several when a command's
/// answer brought the queue before their events did), and where its change began — 0 until the
/// event of each of them has said (`QueueEdit.from`), the least of theirs then.
private struct VersionChange {
    let version: UInt32
    let revisions: ClosedRange<UInt64>
    private var told = 0
    private var least = Int.max

    init(version: UInt32, revisions: ClosedRange<UInt64>) {
        self.version = version
        self.revisions = revisions
    }

    var from: Int { told == revisions.count ? least : 0 }

    mutating func told(_ from: Int) {
        told += 1
        least = min(least, from)
    }
}

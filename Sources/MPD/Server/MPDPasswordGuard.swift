import Base

/// Wrong passwords, counted by who sends them — a uid, a machine (`MPDPeer.guessingKey`) — not
/// by connection, so opening more connections guesses no faster. A password is compared at once
/// when nothing speaks against it; after a wrong one, the next from there waits: 0.1 s, doubling
/// with each wrong one in a row, at most 10 s — a mistyped password costs a tenth of a second,
/// a guesser about 8,600 tries a day instead of 62,000 a second. Attempts from one sender are
/// spaced so (each reserves its moment), however many connections they come over, and so are
/// attempts that arrive while another from there is still being compared (the first wave of a
/// guesser's hundred connections). A right password, or 10 minutes without a wrong one,
/// forgives the count.
///
/// The journal hears of a burst once, at its first wrong password, and of its size when the
/// next burst from there begins (or the right password ends it) — not of each attempt.
final class MPDPasswordGuard: Sendable {
    static let firstDelay: Duration = .milliseconds(100)
    static let longestDelay: Duration = .seconds(10)
    static let forgiveAfter: Duration = .seconds(600)
    /// Senders remembered at once; beyond it the longest quiet are forgotten first.
    static let remembered = 4096

    private struct Record {
        /// Wrong passwords in a row.
        var failures = 0
        /// Attempts reserved and not yet settled.
        var pending = 0
        /// The earliest moment the next attempt from here is compared.
        var nextSlot: ContinuousClock.Instant
        var lastFailure: ContinuousClock.Instant
        /// Wrong passwords in this burst, and when it began.
        var burst = 0
        var burstStart: ContinuousClock.Instant
    }

    private let records = Locked<[String: Record]>([:])

    /// How long an attempt from `peer` waits before its password is compared; the moment after
    /// it is reserved for the next attempt from there. Each reservation is settled — `failed`,
    /// `succeeded` or `dropped` — once its attempt is.
    func reserve(_ peer: MPDPeer, now: ContinuousClock.Instant = .now) -> Duration {
        records.withLock { records in
            let key = peer.guessingKey
            if records[key] == nil, records.count >= Self.remembered { Self.forgetQuietest(&records) }
            var record = records[key] ?? Record(nextSlot: now, lastFailure: now, burstStart: now)
            defer { records[key] = record }
            record.pending += 1
            guard record.failures > 0 || record.pending > 1 else {
                // Compared at once — and the next moment is this one's, as any reservation's: a
                // second attempt arriving before this one is settled waits its turn (four at
                // once were 0, 0, 0.1, 0.2 s apart when they all came before the first failed).
                record.nextSlot = now + Self.firstDelay
                return .zero
            }
            let slot = max(now, record.nextSlot)
            record.nextSlot = slot + Self.delay(after: max(1, record.failures))
            return slot - now
        }
    }

    /// An attempt that was not compared after all (its client left while it waited).
    func dropped(_ peer: MPDPeer) {
        records.withLock { records in
            let key = peer.guessingKey
            records[key]?.pending -= 1
            if let record = records[key], record.pending == 0, record.failures == 0 { records[key] = nil }
        }
    }

    /// A wrong password from `peer`; what the journal should say of it, if anything.
    func failed(_ peer: MPDPeer, now: ContinuousClock.Instant = .now) -> String? {
        records.withLock { records in
            let key = peer.guessingKey
            var said: String?
            var record = records[key] ?? Record(nextSlot: now, lastFailure: now, burstStart: now)
            record.pending = max(0, record.pending - 1)
            if record.burst > 0, now - record.lastFailure >= Self.forgiveAfter {
                said = "MPD: a wrong password from \(peer); further attempts from there are slowed down (the burst before: \(Self.ended(record)))"
                record = Record(pending: record.pending, nextSlot: now, lastFailure: now, burstStart: now)
            } else if record.burst == 0 {
                said = "MPD: a wrong password from \(peer); further attempts from there are slowed down"
                record.burstStart = now
            }
            record.failures += 1
            record.burst += 1
            record.lastFailure = now
            record.nextSlot = max(record.nextSlot, now + Self.delay(after: record.failures))
            records[key] = record
            return said
        }
    }

    /// The right password from `peer`: its count forgiven; what to say of the burst it ends.
    func succeeded(_ peer: MPDPeer, now: ContinuousClock.Instant = .now) -> String? {
        records.withLock { records in
            let key = peer.guessingKey
            guard let record = records[key] else { return nil }
            // Attempts still waiting keep their places; the count starts again.
            records[key] = record.pending > 1 ? Record(pending: record.pending - 1, nextSlot: record.nextSlot, lastFailure: now, burstStart: now) : nil
            return record.burst > 0 ? "MPD: the right password from \(peer), after \(Self.ended(record))" : nil
        }
    }

    /// The wait after `failures` wrong passwords in a row.
    static func delay(after failures: Int) -> Duration {
        guard failures > 0 else { return .zero }
        return min(firstDelay * (1 << min(failures - 1, 20)), longestDelay)
    }

    private static func ended(_ record: Record) -> String {
        let seconds = Int(((record.lastFailure - record.burstStart) / .seconds(1)).rounded())
        return "\(record.burst) wrong password\(record.burst == 1 ? "" : "s") over \(seconds) s"
    }

    private static func forgetQuietest(_ records: inout [String: Record]) {
        let quiet = records.sorted { $0.value.lastFailure < $1.value.lastFailure }.prefix(records.count / 4 + 1)
        for (key, _) in quiet { records[key] = nil }
    }
}

import Base
import FoundationEssentials
import Logging
import Model

/// A live stream at work (internet radio): one connection after another, each a part of bytes in
/// a `LiveRing`, read by the decoder as they come. Nothing of it goes to the cache.
///
/// The connections run in a task of their own (`+Connection`); the decoder's thread reads and
/// blocks here (`LivePart`). One lock, with its condition, guards the parts: the connection
/// appends and the reader takes. A connection that breaks is made again with backoff, for as
/// long as `retryWindow` allows; meanwhile the reader plays what the ring still holds, then
/// waits (buffering), and goes on with the next part when the server is back.
package final class LiveStream: @unchecked Sendable {
    /// One connection's bytes, titles and what its answer said of the station.
    struct Part {
        var ring = LiveRing()
        var station: StationInfo
        /// Titles announced in the part's bytes, not yet taken by the decoder.
        var titles: [StreamTitleChange] = []
    }

    let location: TrackLocation
    let input: any RemoteInput
    /// How long a broken stream is tried again before it fails (`[network] stream_retry`).
    let retryWindow: Duration
    let logger: Logger

    let condition = ThreadCondition()
    // Guarded by `condition`:
    /// Parts not yet read to their end, by number; the connection adds the last.
    var parts: [Int: Part] = [:]
    /// The number of the newest part.
    var newest = 0
    /// The part the reader is at.
    var reading = 0
    var failure: LoaderError?
    /// The stream ended where its last part ends: a file sent without a length, whole.
    var ended = false
    var cancelled = false
    /// A station whose `icy-metaint` makes no sense was said so (once, not at every reconnect).
    var warnedOfInterval = false
    /// Since when the reader has waited without getting a mouthful, what it got meanwhile, and
    /// whether it was said.
    var starvingSince: ContinuousClock.Instant?
    var starvingBytes = 0
    var saidStarved = false
    /// The connection, waiting for room in the ring (or for the reader to reach the newest part).
    var roomWaiter: CheckedContinuation<Void, Never>?
    /// The task that runs the connections (set once, as the stream opens).
    var connections: Task<Void, Never>?
    /// A producer that starts where the reader asks (an HLS playlist with an end), not yet
    /// started: given the time to start at, it starts and says where its first part begins.
    var pendingStart: (@Sendable (Double) -> Double)?
    /// Seconds the stream lasts, when its whole timeline is known (`LiveByteSource.duration`).
    var duration: Double?

    init(location: TrackLocation, input: any RemoteInput, retryWindow: Duration, logger: Logger) {
        self.location = location
        self.input = input
        self.retryWindow = retryWindow
        self.logger = logger
    }

    /// The station's name for messages: what it calls itself, else the source's name.
    var stationName: String {
        condition.withLock { parts[newest]?.station.name } ?? input.name
    }

    /// Ends the stream: the connection closes, and readers waiting in it throw
    /// `LoaderError.cancelled`. Safe from any thread, more than once.
    package func cancel() {
        let (waiter, task) = condition.withLock {
            cancelled = true
            pendingStart = nil  // it holds the stream: a stream never read would never be freed
            condition.broadcast()
            defer { roomWaiter = nil }
            return (roomWaiter, connections)
        }
        waiter?.resume()
        task?.cancel()
    }

    // MARK: The reader's side (the decoder's thread; may block)

    /// Starts a producer that waits for its start (`pendingStart`) at `seconds`, once; returns
    /// where its first part begins. Reading first starts it at 0.
    func start(at seconds: Double) -> Double {
        let start: (@Sendable (Double) -> Double)? = condition.withLock {
            defer { pendingStart = nil }
            return pendingStart
        }
        return start?(seconds) ?? 0
    }

    /// Copies bytes of part `index` at `offset`; 0 once the part's connection ended there.
    /// Waits for bytes; `waiting` hears when the reader starves (buffering) and when it is fed again.
    func read(part index: Int, into buffer: UnsafeMutableRawBufferPointer, at offset: Int64,
              waiting: ((Bool) -> Void)?) throws -> Int {
        _ = start(at: 0)
        return try waitFor(waiting: waiting) { waiter in
            guard parts[index] != nil else { throw LoaderError.cancelled }
            switch parts[index]!.ring.copy(into: buffer, at: offset) {
            case .gone:
                throw LoaderError.badResponse("the live stream moved on past what the decoder asked for")
            case .bytes(let count) where count > 0 || buffer.isEmpty:
                if parts[index]!.ring.hasRoom { waiter = takeRoomWaiter() }
                return (count, count: count)
            case .bytes:
                return parts[index]!.ring.ended ? (0, count: Self.mouthful) : nil
            }
        }
    }

    /// Blocks until the part after `index` begins, and moves the reader there; nil when the
    /// stream ended with part `index`.
    func part(after index: Int, waiting: ((Bool) -> Void)?) throws -> (index: Int, station: StationInfo)? {
        _ = start(at: 0)
        return try waitFor(waiting: waiting) { waiter -> ((index: Int, station: StationInfo)?, count: Int)? in
            if let next = parts[index + 1] {
                parts[index] = nil
                reading = index + 1
                waiter = takeRoomWaiter()  // a connection may wait for the reader to get here
                return ((index + 1, next.station), count: Self.mouthful)
            }
            if ended { return (nil, count: Self.mouthful) }
            if let failure { throw failure }
            return nil
        }
    }

    /// Bytes that feed a reader that had to wait: a quarter of a second of a 128 kbit/s station.
    /// Fewer in `starvedAfter` (a station that trickles a byte at a time) starve it as surely as
    /// none (a station that stalls).
    static let mouthful = 4096

    /// A reader that has gone this long since it first had to wait without getting a mouthful
    /// has outrun what the output holds (the PCM queue, about 3 s, and the sound server's
    /// buffer): it is reported as buffering, and clients show the station paused. Shorter waits
    /// are how a live stream is read: the decoder keeps up with the station, and waits for each
    /// piece it sends.
    static let starvedAfter = Duration.seconds(2)

    /// Runs `attempt` under the lock until it gives a value and the bytes it brought, waiting for
    /// the connection between tries; a mouthful since the reader first waited ends its starving.
    /// `attempt` may hand out the connection's waiter, resumed once the lock is let go.
    private func waitFor<T>(waiting: ((Bool) -> Void)?,
                            _ attempt: (inout CheckedContinuation<Void, Never>?) throws -> (T, count: Int)?) throws -> T {
        var fedAgain = false
        defer { if fedAgain { waiting?(false) } }
        var waiter: CheckedContinuation<Void, Never>?
        defer { waiter?.resume() }
        condition.lock()
        defer { condition.unlock() }
        while true {
            if cancelled { throw LoaderError.cancelled }
            if let (value, count) = try attempt(&waiter) {
                if starvingSince != nil {
                    starvingBytes += count
                    if starvingBytes >= Self.mouthful {
                        fedAgain = saidStarved
                        (starvingSince, saidStarved) = (nil, false)
                    }
                }
                return value
            }
            let now = ContinuousClock.now
            if let since = starvingSince, !saidStarved, now - since >= Self.starvedAfter {
                saidStarved = true
                waiting?(true)
            }
            if starvingSince == nil { (starvingSince, starvingBytes) = (now, 0) }
            condition.wait(seconds: 0.3)
        }
    }

    /// Takes the titles of part `index` announced at or before `offset`.
    func takeTitles(part index: Int, through offset: Int64) -> [StreamTitleChange] {
        condition.withLock {
            guard let titles = parts[index]?.titles, titles.first.map({ $0.offset <= offset }) == true else { return [] }
            let due = titles.prefix { $0.offset <= offset }
            parts[index]!.titles.removeFirst(due.count)
            return Array(due)
        }
    }

    /// What part `index`'s answer said of the station.
    func station(of index: Int) -> StationInfo {
        condition.withLock { parts[index]?.station } ?? StationInfo()
    }

    /// The connection's waiter, if the reader's progress lets it go on (the lock held).
    private func takeRoomWaiter() -> CheckedContinuation<Void, Never>? {
        defer { roomWaiter = nil }
        return roomWaiter
    }
}

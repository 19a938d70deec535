import Model

/// The producer's side of a live stream: whatever brings its bytes — a station's connections
/// (`+Connection`), an HLS stream's segments (`HLSSession`) — adds parts, delivers bytes and
/// titles into them, and ends or fails the stream. Bytes wait in the ring for the reader; a
/// producer that gets ahead waits for room (TCP's back-pressure, for a connection).
extension LiveStream {
    /// Runs `task` as the stream's producer, which `cancel()` ends — at once, if the stream was
    /// cancelled before it started.
    func run(_ task: Task<Void, Never>) {
        let cancelled = condition.withLock {
            connections = task
            return self.cancelled
        }
        if cancelled { task.cancel() }
    }

    /// Adds part `number`, the newest: what the decoder reads once it has read the one before.
    func begin(part number: Int, station: StationInfo) {
        condition.withLock {
            parts[number] = Part(station: station)
            newest = number
            condition.broadcast()
        }
    }

    /// Appends to part `number`, then waits while its ring is full (the reader paused, or slower
    /// than the station).
    func deliver(_ audio: [UInt8], titles: [StreamTitleChange], part number: Int) async {
        condition.withLock {
            parts[number]?.ring.append(audio)
            parts[number]?.titles.append(contentsOf: titles)
            // A station that changes its title at every block (an icy-metaint of 1) keeps only
            // its latest titles waiting: the ring's worth would be millions.
            if let count = parts[number]?.titles.count, count > Self.titlesKept {
                parts[number]?.titles.removeFirst(count - Self.titlesKept)
            }
            condition.broadcast()
        }
        await waitUntil { $0.parts[number]?.ring.hasRoom ?? true }
    }

    /// Marks part `number` ended: its reader reads to its end, then asks for the next — or,
    /// with `stream`, learns that the stream ended there.
    func finish(part number: Int, stream: Bool = false) {
        condition.withLock {
            parts[number]?.ring.ended = true
            if stream { ended = true }
            condition.broadcast()
        }
    }

    /// Waits until the reader is at part `number`: never more than one part is kept ahead of the
    /// reader (a paused stream does not gather connection after connection). False if cancelled.
    func readerCaughtUp(to number: Int) async -> Bool {
        await waitUntil { $0.reading >= number }
        return !Task.isCancelled && !condition.withLock { cancelled }
    }

    /// Suspends (no thread held) until `ready` holds, checked under the lock each time the reader
    /// makes progress, or the stream is cancelled.
    func waitUntil(_ ready: (LiveStream) -> Bool) async {
        while !Task.isCancelled, !condition.withLock({ cancelled || ready(self) }) {
            await withTaskCancellationHandler {
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    // Resumed by the reader (`read`, `part(after:)`) or by `cancel()`; checked again.
                    let now: Bool = condition.withLock {
                        if cancelled || ready(self) { return true }
                        roomWaiter = continuation
                        return false
                    }
                    if now { continuation.resume() }
                }
            } onCancel: {
                cancel()
            }
        }
    }

    /// Fails the stream: the reader throws `error` once it has read what the parts hold.
    func fail(_ error: LoaderError) {
        condition.withLock {
            failure = error
            condition.broadcast()
        }
    }
}

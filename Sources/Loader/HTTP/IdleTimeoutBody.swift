import AsyncHTTPClient
import Base
import NIOCore

/// A response body whose reader gives up once it has waited `limit` for the next bytes: the time
/// it spent waiting counts, not the time it spent with what it got.
///
/// AsyncHTTPClient's own read timeout counts from the socket's last read. A reader slow for a
/// moment — the loader's thread held up by a cache sync on a busy disk — makes the client stop
/// reading (its backpressure), and that timeout then fired against a server that was sending
/// well: the download broke off, and the bytes already in flight were fetched a second time
/// (seen under load with the reader back 0.05 s before the "timeout"). Here a pump task stays a
/// few buffers ahead of the reader through a `BoundedQueue`, and the clock runs only while the
/// reader waits on an empty queue. A reader that stops reading ends the pump, which ends the
/// request (the client closes its connection).
struct IdleTimeoutBody: AsyncSequence, Sendable {
    typealias Element = ByteBuffer

    let base: HTTPClientResponse.Body
    let limit: TimeAmount
    /// Where the waits are timed.
    let loop: any EventLoop

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(reading: Reading(base: base, limit: limit, loop: loop))
    }

    struct AsyncIterator: AsyncIteratorProtocol {
        let reading: Reading

        mutating func next() async throws -> ByteBuffer? { try await reading.next() }
    }

    /// One reading of the body: the pump, its queue, and the reader's current wait.
    final class Reading: Sendable {
        private enum Part: Sendable {
            case bytes(ByteBuffer)
            case failed(any Error)
        }

        private struct State {
            var pump: Task<Void, Never>?
            /// Counts the reader's waits; `waiting` is the one under way.
            var waits = 0
            var waiting: Int?
            var timedOut = false
        }

        private let base: HTTPClientResponse.Body
        private let limit: TimeAmount
        private let loop: any EventLoop
        private let queue = BoundedQueue<Part>(capacity: 4)
        private let state = Locked(State())

        init(base: HTTPClientResponse.Body, limit: TimeAmount, loop: any EventLoop) {
            self.base = base
            self.limit = limit
            self.loop = loop
        }

        deinit {
            state.withLock { $0.pump }?.cancel()
            queue.finish()
        }

        nonisolated(nonsending) func next() async throws -> ByteBuffer? {
            let wait = state.withLock { state in
                if state.pump == nil { state.pump = Self.startPump(base, into: queue) }
                state.waits += 1
                state.waiting = state.timedOut ? nil : state.waits
                return state.waits
            }
            let timer = loop.scheduleTask(in: limit) { [weak self] in self?.expire(wait) }
            let part = await queue.next()
            timer.cancel()
            let timedOut = state.withLock { state in
                state.waiting = nil
                return state.timedOut
            }
            switch part {
            case .bytes(let buffer)?: return buffer
            case .failed(let error)?: throw error
            case nil:
                if timedOut { throw HTTPClientError.readTimeout }
                if Task.isCancelled {
                    state.withLock { $0.pump }?.cancel()
                    throw CancellationError()
                }
                return nil
            }
        }

        /// The wait `wait` lasted `limit`: the server stopped sending.
        private func expire(_ wait: Int) {
            let pump: Task<Void, Never>? = state.withLock { state in
                guard state.waiting == wait else { return nil }
                state.timedOut = true
                return state.pump
            }
            guard let pump else { return }
            pump.cancel()
            queue.finish()
        }

        /// Reads the body into the queue until it ends, fails, or nobody takes more.
        private static func startPump(_ body: HTTPClientResponse.Body, into queue: BoundedQueue<Part>) -> Task<Void, Never> {
            Task {
                do {
                    for try await buffer in body {
                        guard await queue.send(.bytes(buffer)) else { break }
                    }
                } catch {
                    await queue.send(.failed(error))
                }
                queue.finish()
            }
        }
    }
}

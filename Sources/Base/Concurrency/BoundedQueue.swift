
/// A bounded first-in-first-out queue between one producing task and one consuming task: the
/// PCM path from the decoder to the output.
///
/// `send` returns at once while there is room and suspends when the queue is full — that is the
/// back-pressure that keeps memory flat however long the track. Both ends are
/// `nonisolated(nonsending)`, so a send or receive that need not wait costs no hop off the
/// caller's executor: the decoder keeps its thread and decodes on instead of handing every chunk
/// across threads (a rendezvous channel cost a quarter of the decoding speed; see bench/decode).
/// Cancelling either task releases its end.
package final class BoundedQueue<Element: Sendable>: Sendable {
    private struct State {
        var items: [Element] = []
        var finished = false
        /// The consumer, waiting for an item.
        var receiver: CheckedContinuation<Element?, Never>?
        /// The producer, waiting for room.
        var sender: CheckedContinuation<Void, Never>?
    }

    private enum SendStep {
        case delivered(CheckedContinuation<Element?, Never>?)
        case refused
        case full
    }

    package let capacity: Int
    private let state = Locked(State())

    package init(capacity: Int) {
        precondition(capacity > 0)
        self.capacity = capacity
    }

    /// Appends `element`, waiting while the queue is full. Returns false, dropping it, if the
    /// queue was finished or the task cancelled.
    @discardableResult
    nonisolated(nonsending) package func send(_ element: Element) async -> Bool {
        while true {
            let step: SendStep = state.withLock { state in
                if state.finished || Task.isCancelled { return .refused }
                guard state.items.count < capacity else { return .full }
                if let receiver = state.receiver {
                    state.receiver = nil
                    return .delivered(receiver)
                }
                state.items.append(element)
                return .delivered(nil)
            }
            switch step {
            case .refused:
                return false
            case .delivered(let receiver):
                receiver?.resume(returning: element)
                return true
            case .full:
                await withTaskCancellationHandler {
                    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                        let waitNow = state.withLock { state in
                            guard !Task.isCancelled, !state.finished, state.items.count >= capacity else { return false }
                            state.sender = continuation
                            return true
                        }
                        if !waitNow { continuation.resume() }
                    }
                } onCancel: {
                    state.withLock { $0.sender.take() }?.resume()
                }
            }
        }
    }

    /// The next element, waiting for one; nil once the queue is finished and empty, or when the
    /// task is cancelled.
    nonisolated(nonsending) package func next() async -> Element? {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Element?, Never>) in
                let ready: (Element?, CheckedContinuation<Void, Never>?)? = state.withLock { state in
                    if Task.isCancelled || (state.items.isEmpty && state.finished) { return (nil, nil) }
                    guard !state.items.isEmpty else {
                        state.receiver = continuation
                        return nil
                    }
                    return (state.items.removeFirst(), state.sender.take())
                }
                if let (element, sender) = ready {
                    sender?.resume()
                    continuation.resume(returning: element)
                }
            }
        } onCancel: {
            state.withLock { $0.receiver.take() }?.resume(returning: nil)
        }
    }

    /// Ends the queue: the consumer gets what is queued, then nil; further sends are refused.
    package func finish() {
        let (receiver, sender) = state.withLock { state in
            state.finished = true
            defer {
                state.receiver = nil
                state.sender = nil
            }
            return (state.receiver, state.sender)
        }
        receiver?.resume(returning: nil)
        sender?.resume()
    }
}

/// Hands every value to each of any number of listeners, each an `AsyncStream` of its own (one
/// stream cannot have two consumers), and keeps the last value: a new listener may be greeted
/// with what it missed, in the same step that adds it, so it neither misses nor repeats a value
/// sent by the one sender meanwhile. A listener that stops listening is dropped; `finish()` ends
/// every stream, and later listeners get an ended one.
package final class Broadcast<Element: Sendable>: Sendable {
    private struct Listeners {
        var sinks: [UInt64: AsyncStream<Element>.Continuation] = [:]
        var next: UInt64 = 0
        var last: Element?
        var finished = false
    }

    private let listeners = Locked(Listeners())

    package init() {}

    /// The last value sent, if any.
    package var last: Element? { listeners.withLock { $0.last } }

    /// A new stream of every value from now on; `greeting` makes its first value from the last
    /// one sent (nil before any).
    package func subscribe(greeting: ((Element?) -> Element)? = nil) -> AsyncStream<Element> {
        let (stream, sink) = AsyncStream.makeStream(of: Element.self)
        let id: UInt64? = listeners.withLock { listeners in
            guard !listeners.finished else { return nil }
            listeners.next += 1
            listeners.sinks[listeners.next] = sink
            if let greeting { sink.yield(greeting(listeners.last)) }
            return listeners.next
        }
        guard let id else {
            sink.finish()
            return stream
        }
        sink.onTermination = { [weak self] _ in self?.listeners.withLock { _ = $0.sinks.removeValue(forKey: id) } }
        return stream
    }

    /// Sends `value` to every listener. One sender at a time (an actor's), so values go out in order.
    package func yield(_ value: Element) {
        let sinks = listeners.withLock { listeners in
            listeners.last = value
            return Array(listeners.sinks.values)
        }
        for sink in sinks { sink.yield(value) }
    }

    package func finish() {
        let sinks = listeners.withLock { listeners in
            listeners.finished = true
            defer { listeners.sinks = [:] }
            return Array(listeners.sinks.values)
        }
        for sink in sinks { sink.finish() }
    }
}

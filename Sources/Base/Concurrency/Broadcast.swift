/// Hands every value to each of any number of listeners, each an `AsyncStream` of its own (one
/// stream cannot have two consumers). A listener that stops listening is dropped; `finish()`
/// ends every stream, and later subscribers get an ended one.
package final class Broadcast<Element: Sendable>: Sendable {
    private struct Listeners {
        var sinks: [UInt64: AsyncStream<Element>.Continuation] = [:]
        var next: UInt64 = 0
        var finished = false
    }

    private let listeners = Locked(Listeners())

    package init() {}

    /// A new stream of every value from now on.
    package func subscribe() -> AsyncStream<Element> {
        let (stream, sink) = AsyncStream.makeStream(of: Element.self)
        let id: UInt64? = listeners.withLock { listeners in
            guard !listeners.finished else { return nil }
            listeners.next += 1
            listeners.sinks[listeners.next] = sink
            return listeners.next
        }
        guard let id else {
            sink.finish()
            return stream
        }
        sink.onTermination = { [weak self] _ in self?.listeners.withLock { _ = $0.sinks.removeValue(forKey: id) } }
        return stream
    }

    package func yield(_ value: Element) {
        for sink in listeners.withLock({ Array($0.sinks.values) }) { sink.yield(value) }
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

import Dispatch
import FoundationEssentials
import Glibc

/// Delivers SIGINT and SIGTERM as an async sequence instead of killing the process, so the
/// player can stop cleanly (a WAV file gets its header, PulseAudio its stream closed).
final class SignalWatcher {
    let signals: AsyncStream<Int32>
    private let sources: [any DispatchSourceSignal]

    init(_ numbers: [Int32] = [SIGINT, SIGTERM]) {
        let (stream, sink) = AsyncStream.makeStream(of: Int32.self)
        signals = stream
        sources = numbers.map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { sink.yield(number) }
            source.resume()
            return source
        }
    }

    deinit {
        sources.forEach { $0.cancel() }
    }
}

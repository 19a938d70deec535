import Model

/// One part of a live stream — the bytes of one connection — as the decoder reads it: a file of
/// unknown length that ends where its connection ended (`LiveByteSource`).
/// A live stream known weakly: the loader ends those still playing when it shuts down.
struct WeakLiveStream {
    weak var stream: LiveStream?
}

final class LivePart: LiveByteSource, @unchecked Sendable {
    /// Ends the stream once no part of it is held any more: a pipeline that lets go of its
    /// source without cancelling it (a decoder error) must not leave a connection running.
    final class Lifetime: Sendable {
        let stream: LiveStream

        init(_ stream: LiveStream) {
            self.stream = stream
        }

        deinit {
            stream.cancel()
        }
    }

    let stream: LiveStream
    private let index: Int
    private let lifetime: Lifetime
    private let waiting: (@Sendable (Bool) -> Void)?
    let station: StationInfo

    init(stream: LiveStream, index: Int, lifetime: Lifetime, waiting: (@Sendable (Bool) -> Void)?) {
        self.stream = stream
        self.index = index
        self.lifetime = lifetime
        self.waiting = waiting
        station = stream.station(of: index)
    }

    /// This part, with its waits reported to `waiting`: a part opened to check a station, held
    /// for its play, tells the play's pipeline when it starves.
    func reporting(to waiting: (@Sendable (Bool) -> Void)?) -> LivePart {
        LivePart(stream: stream, index: index, lifetime: lifetime, waiting: waiting)
    }

    var length: Int64? { nil }

    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws -> Int {
        try stream.read(part: index, into: buffer, at: offset, waiting: waiting)
    }

    /// Ends the whole stream: a seek, a skip or a stop replaces the pipeline that reads it.
    func cancel() {
        stream.cancel()
    }

    /// Nothing of a live stream can be read without waiting for it.
    func holds(_ range: Range<Int64>) -> Bool {
        range.isEmpty
    }

    func next() throws -> (any LiveByteSource)? {
        guard let (next, _) = try stream.part(after: index, waiting: waiting) else { return nil }
        return LivePart(stream: stream, index: next, lifetime: lifetime, waiting: waiting)
    }

    func takeTitles(through offset: Int64) -> [StreamTitleChange] {
        stream.takeTitles(part: index, through: offset)
    }

    var duration: Double? {
        stream.condition.withLock { stream.duration }
    }

    func start(at seconds: Double) throws -> Double {
        stream.start(at: seconds)
    }
}

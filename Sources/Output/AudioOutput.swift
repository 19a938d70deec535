import Model

/// A place PCM goes: a sound server, a file, nowhere. Like MPD's output plugins, one small
/// interface and one implementation per file; the `OutputActor` drives it.
package protocol AudioOutput: AnyObject, Sendable {
    /// Begins a stream of `format`; the stream before it, if any, is dropped.
    /// Throws `OutputError.unsupportedFormat` for a format this output cannot take now.
    func start(format: PCMFormat) async throws

    /// Queues interleaved samples (at the width of the stream's format), waiting while the
    /// device is full or paused. Cancellable.
    func write(_ samples: PCMSamples) async throws

    /// Waits until everything written has been played. Cancellable.
    func drain() async throws

    /// Drops the current stream and whatever of it has not been played.
    func stop() async

    /// Pauses or resumes; the state carries over to later streams.
    func setPaused(_ paused: Bool) async

    /// Linear volume, 0...1 (or more, amplifying); carries over to later streams.
    func setVolume(_ volume: Double) async

    /// Frames of the current stream that have been played — heard, not merely written.
    func playedFrames() async -> Int64

    /// Releases the device; a file output finishes its file.
    func close() async throws

    /// After `OutputError.serverLost`: connects again, and returns once the server answers and has
    /// a sink to play on; throws if it does not (yet). Pause and volume carry over.
    func reconnect() async throws
}

extension AudioOutput {
    /// An output without a server never loses one.
    package func reconnect() async throws {}
}

import Base
import Model

/// Plays nowhere, like a sound card with no speakers: it takes samples at the pace of real time
/// (or, unpaced, as fast as they come, for benchmarks) and reports the position a card would.
package actor NullOutput: AudioOutput {
    /// How far ahead of the virtual playhead writes may run, in seconds.
    private static let bufferSeconds = 0.2

    private let paced: Bool
    private let gate = AsyncGate()
    private let clock = ContinuousClock()
    private var rate = 44100
    private var channels = 2
    private var written: Int64 = 0
    /// Frames played before `anchor`; while playing, the playhead moves on from there in real time.
    private var playedAtAnchor: Int64 = 0
    private var anchor: ContinuousClock.Instant?

    package init(paced: Bool = true) {
        self.paced = paced
    }

    package func start(format: PCMFormat) {
        rate = format.sampleRate
        channels = format.channels
        written = 0
        playedAtAnchor = 0
        anchor = gate.isOpen ? clock.now : nil
    }

    package func write(_ samples: PCMSamples) async throws {
        try await gate.wait()
        if paced, playedFrames() >= written { reanchor() }  // after an underrun, time restarts here
        written += Int64(samples.count / channels)
        try await waitUntilPlayed(upTo: written - Int64(Self.bufferSeconds * Double(rate)))
    }

    package func drain() async throws {
        try await waitUntilPlayed(upTo: written)
    }

    package func stop() {
        written = 0
        playedAtAnchor = 0
        anchor = gate.isOpen ? clock.now : nil
    }

    package func setPaused(_ paused: Bool) {
        if paused {
            playedAtAnchor = playedFrames()
            anchor = nil
            gate.close()
        } else if !gate.isOpen {
            anchor = clock.now
            gate.open()
        }
    }

    package func setVolume(_ volume: Double) {}

    package func playedFrames() -> Int64 {
        guard paced else { return written }
        guard let anchor else { return min(playedAtAnchor, written) }
        let elapsed = clock.now - anchor
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return min(written, playedAtAnchor + Int64(seconds * Double(rate)))
    }

    package func close() {}

    private func reanchor() {
        playedAtAnchor = written
        if anchor != nil { anchor = clock.now }
    }

    private func waitUntilPlayed(upTo target: Int64) async throws {
        guard paced else { return }
        while true {
            try await gate.wait()
            let lag = target - playedFrames()
            if lag <= 0 { return }
            try await Task.sleep(for: .seconds(Double(lag) / Double(rate)))
        }
    }
}

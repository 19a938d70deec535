import Base
import Decoding
import Foundation
import Model

/// Decodes a source as the player does, and notes when the decoding ended on a thread of its
/// own: stamped on the cooperative pool, the end would wait for whatever other suites keep the
/// pool's threads busy with, and a stop measured so would be theirs, not the loader's.
package actor DecodeStopwatch {
    private let executor = ThreadExecutor(name: "decode-stopwatch")
    package nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
    /// When `decode` returned or threw.
    package private(set) var ended: ContinuousClock.Instant?

    package init() {}

    package func decode(_ source: any ByteSource, into queue: BoundedQueue<PCMPacket>) async throws {
        defer { ended = .now }
        try await DecoderActor().decode(QueueEntry(id: 1, location: TrackLocation(url: URL(string: "http://station")!)),
                                        from: source, startingAt: 0, into: queue)
    }

    deinit {
        executor.shutdown()
    }
}

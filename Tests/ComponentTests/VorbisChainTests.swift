import Base
import Decoding
import Foundation
import Loader
import Model
import Testing
import TestSupport

/// A chained Ogg Vorbis file whose second link has another rate and channel count: the track
/// goes on in the new format, announced by a second `.trackStart` so the output reopens its stream.
@Suite struct VorbisChainTests {
    /// Every packet the decoder actor sends for the file from `start` seconds.
    private func packets(from start: Double) async throws -> [PCMPacket] {
        let url = try await Fixtures.shared.url(.mixedChainVorbis)
        let queue = BoundedQueue<PCMPacket>(capacity: 4)
        let entry = QueueEntry(id: 1, location: TrackLocation(url: url))
        let decoding = Task {
            defer { queue.finish() }
            try await DecoderActor().decode(entry, from: try FileByteSource(path: url.path), startingAt: start, into: queue)
        }
        var received: [PCMPacket] = []
        while let packet = await queue.next() { received.append(packet) }
        try await decoding.value
        return received
    }

    /// The samples between each `.trackStart` and the next, with the format announced.
    private func parts(_ packets: [PCMPacket]) -> [(format: PCMFormat, startFrame: Int64, samples: [Int16])] {
        var parts: [(format: PCMFormat, startFrame: Int64, samples: [Int16])] = []
        for packet in packets {
            switch packet {
            case .trackStart(_, let info, let startFrame): parts.append((info.format, startFrame, []))
            case .samples(let samples): parts[parts.count - 1].samples += samples.int16 ?? []
            case .trackEnd, .streamTags, .pace: break
            }
        }
        return parts
    }

    @Test("each link in its own format, equal to oggdec of that link alone; the second starts at the first's length in its rate")
    func linksInTheirFormats() async throws {
        let found = parts(try await packets(from: 0))
        let first = try await ReferenceDecoder.oggdec(try await Fixtures.shared.url(.vorbis))
        let second = try await ReferenceDecoder.oggdec(try await Fixtures.shared.url(.monoVorbis))
        try #require(found.count == 2, "\(found.map(\.format))")
        #expect(found[0].format == PCMFormat(sampleRate: 44100, channels: 2))
        #expect(found[0].samples == first.samples)
        #expect(found[1].format == PCMFormat(sampleRate: 22050, channels: 1))
        #expect(found[1].startFrame == Int64(first.frameCount / 2))  // 44.1 kHz frames at 22.05 kHz
        #expect(found[1].samples == second.samples)
    }

    @Test("a start in the second link begins in its format, at that time")
    func startInTheSecondLink() async throws {
        let found = parts(try await packets(from: 7.0))
        let second = try await ReferenceDecoder.oggdec(try await Fixtures.shared.url(.monoVorbis))
        let first = try await ReferenceDecoder.oggdec(try await Fixtures.shared.url(.vorbis))
        try #require(found.count == 1, "\(found.map(\.format))")
        #expect(found[0].format == PCMFormat(sampleRate: 22050, channels: 1))
        #expect(abs(found[0].startFrame - 7 * 22050) <= 1)
        // A time seek lands within a packet of the target: compare the length that is left.
        let expected = second.frameCount - (7 * 22050 - first.frameCount / 2)
        #expect(abs(found[0].samples.count - expected) <= 2048, "\(found[0].samples.count) vs \(expected)")
    }
}

import Decoding
import Foundation
import Loader
import Model
import SourceTypes
import Testing
import TestSupport

/// A 60 s AAC file with its `moov` after the audio (ffmpeg's default), over WebDAV (rclone,
/// behind the counting proxy): to start it the loader fetches the head and the `moov` — found by
/// box headers — and nothing of the audio between, and a seek fetches from its frame on.
@Suite struct MP4StreamingTests {
    /// Where the top-level `moov` box starts in `bytes`.
    static func moovStart(_ bytes: Data) throws -> Int {
        var offset = 0
        while offset + 8 <= bytes.count {
            let size = bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
            if bytes[(offset + 4)..<(offset + 8)].elementsEqual("moov".utf8) { return offset }
            guard size >= 8 else { break }
            offset += size
        }
        throw TestSupportError("no moov box")
    }

    /// A GET's first and last byte.
    static func bounds(_ exchange: FaultProxy.Exchange) -> (first: Int, last: Int)? {
        guard let spec = exchange.range?.split(separator: "=").last?.split(separator: "-"), spec.count == 2,
              let first = Int(spec[0]), let last = Int(spec[1]) else { return nil }
        return (first, last)
    }

    @Test("starting a moov-at-end M4A fetches its head and its moov, no audio between; its first second decodes as ffmpeg's")
    func firstAudioFetchesHeadAndMoov() async throws {
        let rig = try await StreamingRig([.longM4A])
        let origin = try rig.origin(.longM4A)
        let moov = try Self.moovStart(origin)
        let loader = LoaderActor(configuration: try LoaderConfiguration.parse(rig.configText(), relativeTo: rig.directory))
        let source = try await loader.open(rig.url(.longM4A))
        let second = try await onOwnThread {
            let decoder = try DecoderActor.open(source)
            var samples: [Int16] = []
            while samples.count < 44100 * 2, let packet = try decoder.read(maxFrames: 4096).int16, !packet.isEmpty { samples += packet }
            return samples
        }
        let gets = rig.proxy.log.filter { $0.method == "GET" }
        await loader.shutdown()
        let sent = gets.reduce(0) { $0 + $1.bodyBytes }
        let head = Int(ReadAheadPlanner.jumpChunk)
        print("first second of a \(origin.count)-byte moov-at-end M4A (moov at \(moov), \(origin.count - moov) bytes): "
              + "\(sent) bytes fetched, \(gets.map { "\($0.range ?? "whole") \($0.bodyBytes)" })")
        for get in gets {
            let range = try #require(Self.bounds(get), "a ranged GET")
            #expect(range.last < head || range.first >= moov, "\(get.range ?? "") reaches into the audio between the head and the moov")
        }
        #expect(sent <= head + origin.count - moov)
        let reference = try await ReferenceDecoder.ffmpeg(try await Fixtures.shared.url(.longM4A))
        #expect(Array(second.prefix(44100 * 2)) == reference.frames(from: 0, to: 44100).samples)
    }
}

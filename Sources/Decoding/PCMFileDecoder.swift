import Model
import Parsers

/// WAV (RIFF, RF64) and AIFF (AIFF-C): uncompressed samples read straight from where the chunk
/// walk found them, so a seek is a byte offset and fetches nothing before it.
///
/// Up to 16-bit integers play as 16 bits (8-bit shifted up, as sox does); wider integers and
/// floats as 24 bits — 24-bit stays 24-bit, as FLAC does; 32-bit and float are rounded to 24 bits
/// the way `sox -b 24 -D` rounds them, so both agree sample for sample.
package final class PCMFileDecoder: AudioDecoder {
    /// PulseAudio's highest rate (`PA_RATE_MAX`); a higher one is a damaged header.
    static let maxSampleRate = 384_000
    static let maxChannels = 8
    private let source: any ByteSource
    private let layout: PCMFileLayout
    package let info: TrackInfo
    package private(set) var position: Int64 = 0
    private var held = HeldFailure()
    private var endReported = false
    /// The source ended before the (unstated) size: the end is here.
    private var ended = false

    package init(source: any ByteSource) throws {
        var walk = PCMFileLayoutReader(fileLength: source.length, readingTags: false)
        var offset: Int64 = 0
        let head = try source.readBytes(at: 0, count: Int(PCMFileLayoutReader.window))
        var bytes = head
        var found: PCMFileLayout?
        while found == nil {
            do {
                switch try walk.step(bytes[...], at: offset) {
                case .done(let layout):
                    found = layout
                case .need(let range):
                    offset = range.lowerBound
                    bytes = try source.readBytes(in: range)
                }
            } catch let error as ParseError {
                throw DecoderError.invalidStream(head.starts(with: "FORM".utf8) ? .aiff : .wav, error.message)
            }
        }
        guard let layout = found else { throw DecoderError.notAudio }
        let codec: AudioCodec = layout.container == .wav ? .wav : .aiff
        guard (1...Self.maxSampleRate).contains(layout.sampleRate) else {
            throw DecoderError.invalidStream(codec, "\(layout.sampleRate) Hz (cloudplayerd plays up to 384 kHz)")
        }
        guard (1...Self.maxChannels).contains(layout.channels) else {
            throw DecoderError.invalidStream(codec, "\(layout.channels) channels (cloudplayerd plays up to 8)")
        }
        self.source = source
        self.layout = layout
        let unknown = layout.statedSize == .unstated && source.length == nil
        info = TrackInfo(codec: codec, format: PCMFormat(sampleRate: layout.sampleRate, channels: layout.channels,
                                                         bitsPerSample: layout.encoding.isWide ? 24 : 16),
                         totalFrames: unknown ? nil : layout.totalFrames,
                         // Uncompressed: as many bits every second as the samples hold, as stored.
                         bitrate: TrackInfo.kilobitsPerSecond(bytes: Int64(layout.frameBytes * layout.sampleRate), seconds: 1))
    }

    package func seek(toFrame frame: Int64) throws {
        held = HeldFailure()
        ended = false
        position = max(0, min(frame, layout.totalFrames))
    }

    package func read(maxFrames: Int) throws -> PCMSamples {
        try held.rethrow()
        let frameBytes = layout.frameBytes
        let wanted = ended ? 0 : Int(min(Int64(maxFrames), layout.totalFrames - position))
        guard wanted > 0 else {
            try reportEnd()
            return info.format.isWide ? .int32([]) : .int16([])
        }
        let bytes = try source.readBytes(at: layout.dataStart + position * Int64(frameBytes), count: wanted * frameBytes)
        let frames = bytes.count / frameBytes
        let samples = PCMConversion.samples(bytes[..<(frames * frameBytes)], encoding: layout.encoding, wide: info.format.isWide)
        position += Int64(frames)
        if frames < wanted && layout.statedSize == .unstated {
            // No size stated and none known: the audio ends where the source does.
            ended = true
        } else if frames < wanted {
            // The file got shorter than when it was opened.
            let rate = Double(layout.sampleRate)
            try held.hold(DecoderError.truncated(playedSeconds: Double(position) / rate,
                                                 expectedSeconds: Double(layout.totalFrames) / rate), after: samples.count)
        }
        return samples
    }

    /// At the end, once: a header that stated more than the file holds is said, after every
    /// frame there is has played.
    private func reportEnd() throws {
        guard !endReported, let stated = layout.statedSize else { return }
        endReported = true
        let rate = Double(layout.sampleRate)
        switch stated {
        case .unstated:
            throw DecoderError.sizeUnstated(info.codec, playedSeconds: Double(position) / rate)
        case .beyondFile(let bytes):
            throw DecoderError.truncated(playedSeconds: Double(position) / rate,
                                         expectedSeconds: Double(bytes / Int64(layout.frameBytes)) / rate)
        }
    }
}

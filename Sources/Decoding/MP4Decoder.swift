import CAVCodec
import Model
import Parsers

/// AAC and ALAC in MP4 (M4A, M4B): our own demuxer finds every sample's bytes in the sample
/// tables, and FFmpeg's libavcodec decodes them — the decoder MPD and mpv use. A seek fetches
/// from the sample it lands in (one before it for AAC, whose frames overlap), nothing before.
///
/// What is heard is what the edit list says: the encoder's delay (`media_time`) is skipped and
/// the padding after the edit's length dropped, so albums join gaplessly. AAC plays as 16 bits,
/// converted from FFmpeg's float as its own `-f wav` does (`lrintf(x·32768)`, clipped); ALAC as
/// it was encoded, 16 or 24 bits.
///
/// HE-AAC (SBR, and PS) decodes at twice its core rate, which its configuration may not say
/// (implicit signalling): the first frame is decoded when the track opens, and its rate and
/// channels are the track's. A track that counts time at the core rate (Nero's) has each tick
/// stand for two frames; one that counts at the output rate (Apple's, fdk-aac's) for one.
///
/// A fragmented file's samples are in the `moof` boxes after its `moov`: they join the table
/// fragment by fragment as playing reaches them (`MP4FragmentWalk`).
package final class MP4Decoder: AudioDecoder {
    private let source: any ByteSource
    private let track: MP4AudioTrack
    /// Every sample known: all of them, or a fragmented file's up to the last `moof` read.
    private var table: MP4SampleTable
    private var fragments: MP4FragmentWalk?
    /// Where what is heard starts and ends, in frames of the decoded stream (`end`: nil until
    /// the last sample, for a fragmented file of unstated length).
    private let start: Int64
    private let end: Int64?
    private var ffmpeg: FFmpegCodec
    package let info: TrackInfo
    /// Frames heard per tick of the track's timescale: 2 for HE-AAC timed at its core rate, else 1.
    private let scale: Int64
    /// Samples decoded before the one a start or seek lands in, and dropped (`aacPreRoll`).
    private let preRoll: Int
    package private(set) var position: Int64 = 0
    /// The sample sent next, and the media time of the next frame the decoder hands out.
    private var nextSample = 0
    private var decodedTime: Int64 = 0
    /// Decoded frames before this media time are dropped: the encoder's delay, or a seek's pre-roll.
    private var skipUntil: Int64 = 0
    private var flushed = false
    private var narrow = SampleBacklog<Int16>()
    private var wide = SampleBacklog<Int32>()
    private var held = HeldFailure()

    package init(source: any ByteSource) throws {
        self.source = source
        var walk = MP4FileReader(fileLength: source.length)
        var offset: Int64 = 0
        var bytes = try source.readBytes(at: 0, count: Int(MP4FileReader.window))
        var track: MP4AudioTrack?
        do {
            while track == nil {
                switch try walk.step(bytes[...], at: offset) {
                case .done(let moov):
                    track = try MP4AudioTrack(moov: try source.readBytes(in: moov)[...], at: moov.lowerBound, fileLength: source.length)
                    let listed = track?.table.samples.last.map { $0.time + Int64($0.duration) } ?? 0
                    fragments = track?.fragments.map { MP4FragmentWalk(defaults: $0, after: moov.upperBound, time: listed) }
                case .need(let range):
                    offset = range.lowerBound
                    bytes = try source.readBytes(in: range)
                }
            }
        } catch let error as ParseError {
            throw DecoderError.invalidStream(.aac, error.message)
        }
        guard let track else { throw DecoderError.notAudio }
        self.track = track
        table = track.table
        let codec: AudioCodec
        let config: [UInt8]
        switch track.entry.codec {
        case .aac(let bytes): (codec, config) = (.aac, bytes)
        case .alac(let bytes): (codec, config) = (.alac, bytes)
        }
        try FFmpegCodec.load(for: codec)
        guard let ffmpeg = FFmpegCodec(codec == .aac ? AV_CODEC_ID_AAC : AV_CODEC_ID_ALAC, configuration: config,
                                       sampleRate: track.timescale, channels: track.entry.channels), let probe = ffmpeg.fresh() else {
            throw DecoderError.invalidStream(codec, "FFmpeg cannot decode its \(codec.rawValue) configuration")
        }
        self.ffmpeg = ffmpeg
        do {
            if fragments != nil, let samples = try fragments?.nextSamples(from: source) { table.samples += samples }
        } catch let error as ParseError {
            throw DecoderError.invalidStream(codec, error.message)
        }
        // Decoded by a decoder of its own (`fresh()` says why).
        let first = try Self.firstFrame(of: table.samples, in: source, probe)
        let rate = first?.rate ?? track.timescale
        guard rate == track.timescale || rate == 2 * track.timescale else {
            throw DecoderError.invalidStream(codec, "it decodes at \(rate) Hz, which its track's \(track.timescale) Hz cannot time")
        }
        let scale = Int64(rate / track.timescale), start = track.start * scale
        (self.scale, self.start, end) = (scale, start, track.length.map { start + $0 * scale })
        let channels = first?.channels ?? ffmpeg.channels
        guard (1...8).contains(channels) else { throw DecoderError.invalidStream(codec, "\(channels) channels (cloudplayerd plays up to 8)") }
        preRoll = codec == .alac ? 0 : Self.aacPreRoll
        let deep = codec == .alac && ffmpeg.bitsPerRawSample > 16
        // Over the samples the tables list (a fragmented file's first fragments): the boxes, a
        // cover among them, are not audio.
        let listed = table.samples.reduce(into: (bytes: Int64(0), time: Int64(0))) { sum, sample in
            sum.bytes += Int64(sample.size)
            sum.time += Int64(sample.duration)
        }
        info = TrackInfo(codec: codec, format: PCMFormat(sampleRate: rate, channels: channels, bitsPerSample: deep ? 24 : 16),
                         totalFrames: track.length.map { $0 * scale },
                         bitrate: TrackInfo.kilobitsPerSecond(bytes: listed.bytes, seconds: Double(listed.time) / Double(track.timescale)))
        try seek(toFrame: 0)
    }

    /// Samples of pre-roll for AAC: one for the overlap of its transform, and two more for SBR,
    /// whose filter banks delay its output by over a thousand frames (and which the configuration
    /// may not announce). Cheap: three samples are a few hundred bytes.
    static let aacPreRoll = 3

    /// The rate and channels of the first frame the track decodes to (nil if its first
    /// few samples decode to none).
    private static func firstFrame(of samples: [MP4SampleTable.Sample], in source: any ByteSource,
                                   _ ffmpeg: FFmpegCodec) throws -> (rate: Int, channels: Int)? {
        var found: (rate: Int, channels: Int)?
        for sample in samples.prefix(4) where found == nil {
            let bytes = try source.readBytes(at: sample.offset, count: sample.size)
            guard bytes.count == sample.size, try ffmpeg.send(bytes) else { continue }
            ffmpeg.receive { frame in
                if found == nil { found = (Int(frame.sample_rate), Int(frame.ch_layout.nb_channels)) }
            }
        }
        return found
    }

    package func seek(toFrame target: Int64) throws {
        let frameTime = start + min(max(0, target), (end ?? .max) - start)
        narrow.clear()
        wide.clear()
        held = HeldFailure()
        flushed = false
        if let fresh = ffmpeg.fresh() { ffmpeg = fresh }
        // A fragmented file: the fragments up to the target's are read (their `moof`s only).
        while let last = table.samples.last, (last.time + Int64(last.duration)) * scale <= frameTime, try loadFragment() {}
        guard !table.samples.isEmpty else { return }
        nextSample = max(0, table.sample(at: frameTime / scale) - preRoll)
        decodedTime = table.samples[nextSample].time * scale
        skipUntil = frameTime
        position = frameTime - start
    }

    /// Adds the next fragment's samples to the table; false at the end of the file (or when the
    /// file is not fragmented).
    private func loadFragment() throws -> Bool {
        do {
            guard let samples = try fragments?.nextSamples(from: source) else { return false }
            guard table.samples.count + samples.count <= MP4SampleTable.maxSamples else {
                throw ParseError.malformed("fragments of more than \(MP4SampleTable.maxSamples) samples")
            }
            table.samples += samples
            return true
        } catch let error as ParseError {
            throw DecoderError.invalidStream(info.codec, error.message)
        }
    }

    package func read(maxFrames: Int) throws -> PCMSamples {
        try held.rethrow()
        let channels = info.format.channels
        let wanted = Int(min(Int64(maxFrames), (end ?? .max) - start - position)) * channels
        do {
            while (info.format.isWide ? wide.count : narrow.count) < wanted, try decodeMore() {}
        } catch {
            let samples = take(wanted)
            try held.hold(error, after: samples.count)
            return samples
        }
        let samples = take(wanted)
        return samples
    }

    private func take(_ count: Int) -> PCMSamples {
        let samples: PCMSamples = info.format.isWide ? .int32(wide.take(upTo: max(0, count))) : .int16(narrow.take(upTo: max(0, count)))
        position += Int64(samples.count / info.format.channels)
        return samples
    }

    /// Sends one sample to FFmpeg (or, after the last, the end) and takes what it hands out;
    /// false once it has nothing more.
    private func decodeMore() throws -> Bool {
        if nextSample == table.samples.count, !flushed { _ = try loadFragment() }
        if nextSample < table.samples.count {
            let sample = table.samples[nextSample]
            let bytes = try source.readBytes(at: sample.offset, count: sample.size)
            guard bytes.count == sample.size else {
                let rate = Double(info.format.sampleRate)
                throw DecoderError.truncated(playedSeconds: Double(position) / rate, expectedSeconds: info.totalFrames.map { Double($0) / rate })
            }
            nextSample += 1
            // A damaged frame is skipped by FFmpeg's decoders; its time passes in silence.
            if try !ffmpeg.send(bytes) { decodedTime += Int64(sample.duration) * scale }
        } else if !flushed {
            flushed = true
            ffmpeg.sendEnd()
        } else {
            return false
        }
        try ffmpeg.receive(keeping: skipUntil..<(end ?? .max), time: &decodedTime, as: info.format, codec: info.codec,
                           narrow: &narrow, wide: &wide)
        return true
    }
}

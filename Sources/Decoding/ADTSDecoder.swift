import CAVCodec
import Model
import Parsers

/// AAC in ADTS — raw `.aac` files, AAC internet radio (`audio/aac`, `audio/aacp`), and the audio
/// of HLS segments — decoded by FFmpeg's libavcodec, which reads each frame's header itself (no
/// configuration is given: a frame carries its own). Plays as 16 bits, as the MP4 decoder does.
///
/// HE-AAC (SBR, PS) signals itself only inside the frames: the first frames are decoded when
/// the stream opens, and the rate they come out at is the stream's.
///
/// ADTS has no index: a seek walks the frame headers from the start (reading the file, cached
/// after the first time) to the frame it lands in, decodes from a few frames before it, and
/// drops what comes before the target, so it lands on the exact frame. The length is unknown
/// until the end (nil).
package final class ADTSDecoder: AudioDecoder {
    private var reader: ADTSFrameReader
    private var ffmpeg: FFmpegCodec
    package let info: TrackInfo
    /// Frames heard per frame of the core rate: 2 for HE-AAC, else 1.
    private let scale: Int64
    package private(set) var position: Int64 = 0
    /// The frame (of the output) the next decoded sample is, and the first that is kept.
    private var decodedFrame: Int64 = 0
    private var keepFrom: Int64 = 0
    private var flushed = false
    private var narrow = SampleBacklog<Int16>()
    private var wide = SampleBacklog<Int32>()
    private var held = HeldFailure()
    /// The input offset and the frame of each frame sent lately: where a title placed at a byte
    /// of the stream is heard (`frame(atInput:)`). A read's worth and more.
    private var recentFrames: [(offset: Int64, frame: Int64)] = []
    private static let framesRemembered = 128

    /// Frames decoded before a seek's target frame and dropped: AAC's frames overlap, and SBR
    /// delays its output by over a thousand samples.
    static let preRoll = 3

    package init(source: any ByteSource) throws {
        try FFmpegCodec.load(for: .aac)
        reader = try ADTSFrameReader(source: source)
        let first = reader.first
        guard (1...8).contains(first.channels) else {
            throw DecoderError.unsupportedFormat("AAC whose channel layout is in its frames (ADTS channel configuration 0)")
        }
        guard let ffmpeg = FFmpegCodec(AV_CODEC_ID_AAC, configuration: [], sampleRate: first.sampleRate, channels: first.channels) else {
            throw DecoderError.invalidStream(.aac, "FFmpeg cannot decode its configuration")
        }
        self.ffmpeg = ffmpeg
        // The rate the first frames decode at: the core rate, or twice it with SBR.
        var found: (rate: Int, channels: Int)?
        var tried = 0
        while found == nil, tried < 8, let frame = try reader.next() {
            tried += 1
            guard try ffmpeg.send(frame) else { continue }
            ffmpeg.receive { frame in
                if found == nil { found = (Int(frame.sample_rate), Int(frame.ch_layout.nb_channels)) }
            }
        }
        guard let found else { throw DecoderError.invalidStream(.aac, "its first frames decode to nothing") }
        guard found.rate == first.sampleRate || found.rate == 2 * first.sampleRate, (1...8).contains(found.channels) else {
            throw DecoderError.invalidStream(.aac, "its frames say \(first.sampleRate) Hz but decode at \(found.rate) Hz")
        }
        scale = Int64(found.rate / first.sampleRate)
        // The first frames' rate (a station's stream has no end to average to): each holds 1024
        // samples of the core rate.
        let bitrate = TrackInfo.kilobitsPerSecond(bytes: reader.offset - reader.start, seconds: Double(tried * 1024) / Double(first.sampleRate))
        info = TrackInfo(codec: .aac, format: PCMFormat(sampleRate: found.rate, channels: found.channels, bitsPerSample: 16),
                         totalFrames: nil, bitrate: bitrate)
        // Started again from the first frame with a decoder as it was before its first frame.
        try seek(toFrame: 0)
    }

    package var inputPosition: Int64 { reader.offset }

    package func frame(atInput offset: Int64) -> Int64? {
        // The first frame that starts at or after the offset: a title placed between two frames
        // (a segment's start) is heard from the frame after it.
        guard let first = recentFrames.first, offset >= first.offset,
              let at = recentFrames.first(where: { $0.offset >= offset }) else { return nil }
        // Decoded frames count in the track's time, as `position` does; those before a seek's
        // target are not heard.
        return max(at.frame, keepFrom)
    }

    package func seek(toFrame target: Int64) throws {
        narrow.clear()
        wide.clear()
        held = HeldFailure()
        flushed = false
        if let fresh = ffmpeg.fresh() { ffmpeg = fresh }
        reader.rewind()
        recentFrames.removeAll()
        decodedFrame = 0
        let target = max(0, target)
        // Walk the headers (no decoding) to the frame the target lies in, keeping the starts of
        // the last few frames: decoding starts `preRoll` frames before it.
        var recent: [(offset: Int64, frame: Int64)] = []
        var frame: Int64 = 0
        while let header = try reader.skipFrame() {
            recent.append((reader.offset - Int64(header.length), frame))
            if recent.count > Self.preRoll + 1 { recent.removeFirst() }
            let frames = Int64(header.samplesPerFrame) * scale
            if frame + frames > target { break }
            frame += frames
        }
        let from = recent.first ?? (reader.start, 0)
        reader.rewind(to: from.offset)
        decodedFrame = from.frame
        keepFrom = target
        position = target
    }

    package func read(maxFrames: Int) throws -> PCMSamples {
        try held.rethrow()
        let wanted = maxFrames * info.format.channels
        do {
            while narrow.count < wanted, try decodeMore() {}
        } catch {
            let samples = take(wanted)
            try held.hold(error, after: samples.count)
            return samples
        }
        return take(wanted)
    }

    private func take(_ count: Int) -> PCMSamples {
        let samples = PCMSamples.int16(narrow.take(upTo: count))
        position += Int64(samples.count / info.format.channels)
        return samples
    }

    /// Sends one frame to FFmpeg (or, after the last, the end) and takes what it hands out;
    /// false once it has nothing more.
    private func decodeMore() throws -> Bool {
        if let frame = try reader.next() {
            // FFmpeg's AAC decoder hands out each frame's samples as it takes it, so the frame
            // sent now begins at the time the next sample decoded will have.
            recentFrames.append((reader.offset - Int64(frame.count), decodedFrame))
            if recentFrames.count > Self.framesRemembered { recentFrames.removeFirst(recentFrames.count - Self.framesRemembered) }
            // A damaged frame is skipped by FFmpeg; its time passes in silence.
            if let header = ADTSHeader(frame[...]), try !ffmpeg.send(frame) { decodedFrame += Int64(header.samplesPerFrame) * scale }
        } else if !flushed {
            flushed = true
            ffmpeg.sendEnd()
        } else {
            return false
        }
        try ffmpeg.receive(keeping: keepFrom..<Int64.max, time: &decodedFrame, as: info.format, codec: .aac, narrow: &narrow, wide: &wide)
        return true
    }
}

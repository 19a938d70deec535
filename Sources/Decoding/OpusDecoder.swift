import COpusFile
import Glibc
import Model
import Parsers

/// Ogg Opus through libopusfile, reading from a `ByteSource` through its callbacks.
///
/// Pre-skip, end trimming and the header's output gain are applied by opusfile; output is 48 kHz.
/// Dither is off, so the PCM equals `opusdec --rate 48000 --no-dither` bit for bit. Mono files
/// stay mono; anything else is mixed to stereo (as chained streams may change channel count).
package final class OpusDecoder: AudioDecoder {
    private let file: OpaquePointer
    private let cursor: ByteCursor
    private let mono: Bool
    package let info: TrackInfo
    package private(set) var position: Int64 = 0
    private var held = HeldFailure()
    /// The link whose samples the last read returned (-1 before the first).
    private var link: Int32 = -1
    /// A link that began in the last read's samples.
    private var linkStart: LinkStart?

    init(source: any ByteSource) throws {
        let cursor = ByteCursor(source: source)
        // A live stream (no length) is read as a stream: its links come one after another.
        let live = source.length == nil
        var callbacks = OpusFileCallbacks(read: opusRead, seek: live ? nil : opusSeek, tell: opusTell, close: nil)
        var error: Int32 = 0
        guard let file = op_open_callbacks(Unmanaged.passUnretained(cursor).toOpaque(), &callbacks, nil, 0, &error) else {
            throw cursor.failure ?? DecoderError.invalidStream(.opus, Self.describe(error))
        }
        self.file = file
        self.cursor = cursor
        op_set_dither_enabled(file, 0)
        // A stream's later links may have two channels: it plays as stereo throughout.
        mono = !live && op_link_count(file) == 1 && op_channel_count(file, -1) == 1
        let total = op_pcm_total(file, -1)
        info = TrackInfo(codec: .opus, format: PCMFormat(sampleRate: 48000, channels: mono ? 1 : 2),
                         totalFrames: total >= 0 ? Int64(total) : nil,
                         bitrate: total > 0 ? Self.bitrate(source, seconds: Double(total) / 48000) : nil)
    }

    deinit {
        op_free(file)
    }

    /// The pages after the headers over the length: not `op_bitrate`, which counts the headers
    /// in, and with them a cover of a megabyte. (Bytes opusfile has read already.)
    private static func bitrate(_ source: any ByteSource, seconds: Double) -> Int? {
        guard let length = source.length,
              let start = try? OggAudioStart.offset(reading: { try source.readBytes(at: $0, count: $1) }) else { return nil }
        return TrackInfo.kilobitsPerSecond(bytes: length - start, seconds: seconds)
    }

    package func seek(toFrame frame: Int64) throws {
        let status = op_pcm_seek(file, ogg_int64_t(frame))
        guard status == 0 else { throw cursor.failure ?? DecoderError.decodeFailed(.opus, Self.describe(status)) }
        position = frame
        link = op_current_link(file)
        linkStart = nil
    }

    package func takeLinkStart() -> LinkStart? {
        defer { linkStart = nil }
        return linkStart
    }

    package var inputPosition: Int64 { cursor.position }

    package func read(maxFrames: Int) throws -> PCMSamples {
        try held.rethrow()
        linkStart = nil
        let channels = info.format.channels
        // Uninitialised: opusfile writes every sample we keep, so zeroing first is wasted work.
        let samples = try [Int16](unsafeUninitializedCapacity: maxFrames * channels) { buffer, kept in
            var frames = 0
            while frames < maxFrames {
                let room = Int32((maxFrames - frames) * channels)
                let start = buffer.baseAddress! + frames * channels
                let result = mono ? op_read(file, start, room, nil) : op_read_stereo(file, start, room)
                if result > 0 {
                    // A read's samples come from one link; one of another link starts a song.
                    let current = op_current_link(file)
                    let before = frames
                    frames += Int(result)
                    if current != link {
                        link = current
                        linkStart = LinkStart(frame: before, tags: currentTags())
                        if before > 0 { break }  // one link start per read
                    }
                } else if result == 0 {
                    break
                } else if result != OP_HOLE {  // a hole (lost pages) skips samples; decoding goes on
                    try held.hold(cursor.failure ?? DecoderError.decodeFailed(.opus, Self.describe(result)), after: frames)
                    break
                }
            }
            kept = frames * channels
        }
        position += Int64(samples.count / channels)
        if samples.isEmpty, try !OggTail.endsWithEndOfStream(cursor.source) {
            throw DecoderError.truncated(playedSeconds: Double(position) / 48000, expectedSeconds: nil)
        }
        return .int16(samples)
    }

    /// The comments of the link being read.
    private func currentTags() -> TrackTags {
        guard let tags = op_tags(file, -1)?.pointee else { return TrackTags() }
        return LinkComments.tags(tags.user_comments, lengths: tags.comment_lengths, count: tags.comments)
    }

    private static func describe(_ code: Int32) -> String {
        switch code {
        case OP_EREAD: "read error"
        case OP_EFAULT: "internal error"
        case OP_EIMPL: "uses an unsupported feature"
        case OP_EINVAL: "invalid argument"
        case OP_ENOTFORMAT: "not an Ogg Opus stream"
        case OP_EBADHEADER: "bad Opus header"
        case OP_EVERSION: "unknown Opus version"
        case OP_EBADLINK: "damaged stream (bad link)"
        case OP_EBADPACKET: "damaged stream (bad packet)"
        case OP_EBADTIMESTAMP: "damaged stream (bad timestamp)"
        case OP_ENOSEEK: "stream is not seekable"
        default: "error \(code)"
        }
    }
}

private func opusRead(_ stream: UnsafeMutableRawPointer?, _ buffer: UnsafeMutablePointer<UInt8>?, _ count: Int32) -> Int32 {
    let cursor = Unmanaged<ByteCursor>.fromOpaque(stream!).takeUnretainedValue()
    return Int32(cursor.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: Int(count))))
}

private func opusSeek(_ stream: UnsafeMutableRawPointer?, _ offset: opus_int64, _ whence: Int32) -> Int32 {
    let cursor = Unmanaged<ByteCursor>.fromOpaque(stream!).takeUnretainedValue()
    return cursor.seek(offset: offset, whence: whence) >= 0 ? 0 : -1
}

private func opusTell(_ stream: UnsafeMutableRawPointer?) -> opus_int64 {
    Unmanaged<ByteCursor>.fromOpaque(stream!).takeUnretainedValue().position
}

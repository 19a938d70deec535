import CFLAC
import Glibc
import Model

/// FLAC (native, or in Ogg) through libFLAC's stream decoder, reading from a `ByteSource`.
///
/// Lossless, so the PCM equals `flac -d` sample for sample: up to 16 bits as `Int16`, 17 to 24
/// bits as `Int32` at 24 bits, 25 to 32 as `Int32` at 32 (shallower depths shifted up, never down). Seeks go through
/// `seek_absolute`, which uses the SEEKTABLE or bisects the file, so an uncached seek fetches
/// only the frames it probes. A whole decode from the start is checked against STREAMINFO's MD5.
package final class FLACDecoder: AudioDecoder {
    /// What the player plays: PulseAudio takes more, but a rate above this is a damaged header.
    static let maxSampleRate = 192_000
    static let maxChannels = 8

    private let decoder: UnsafeMutablePointer<FLAC__StreamDecoder>
    fileprivate let cursor: ByteCursor
    private let ogg: Bool
    package private(set) var info = TrackInfo(codec: .flac, format: PCMFormat(sampleRate: 0, channels: 0), totalFrames: nil)
    package private(set) var position: Int64 = 0
    private var held = HeldFailure()

    /// What the callbacks learnt: STREAMINFO's shape, decoded frames not yet read, the first error.
    fileprivate var streamInfo: (rate: Int, channels: Int, bits: Int, total: UInt64, maxBlock: Int)?
    /// Decoded and not yet read: `narrow` for tracks played at 16 bits, `wide` at 24.
    private var narrow = SampleBacklog<Int16>()
    private var wide = SampleBacklog<Int32>()
    fileprivate var streamError: (any Error)?
    /// Whether libFLAC was finished (its MD5 check ran) and must be set up again to seek.
    private var finished = false
    /// While seeking, libFLAC's complaints are its probes landing mid-frame, not damage.
    private var seeking = false

    package init(source: any ByteSource, ogg: Bool = false) throws {
        guard let decoder = FLAC__stream_decoder_new() else {
            throw DecoderError.invalidStream(.flac, "cannot create a decoder")
        }
        self.decoder = decoder
        self.cursor = ByteCursor(source: source)
        self.ogg = ogg
        try start()
        guard let streamInfo else { throw openFailure("no STREAMINFO block") }
        guard (1...32).contains(streamInfo.bits) else {
            throw DecoderError.invalidStream(.flac, "\(streamInfo.bits)-bit samples (FLAC has up to 32)")
        }
        guard (1...Self.maxSampleRate).contains(streamInfo.rate) else {
            throw DecoderError.invalidStream(.flac, "\(streamInfo.rate) Hz (cloudplayerd plays up to 192 kHz)")
        }
        guard (1...Self.maxChannels).contains(streamInfo.channels) else {
            throw DecoderError.invalidStream(.flac, "\(streamInfo.channels) channels (cloudplayerd plays up to 8)")
        }
        let format = PCMFormat(sampleRate: streamInfo.rate, channels: streamInfo.channels,
                               bitsPerSample: streamInfo.bits > 24 ? 32 : streamInfo.bits > 16 ? 24 : 16)
        info = TrackInfo(codec: .flac, format: format, totalFrames: Self.plausibleTotal(streamInfo.total, cursor.source))
        info.bitrate = audioBytes().flatMap { TrackInfo.kilobitsPerSecond(bytes: $0, seconds: info.duration) }
    }

    /// The bytes from the first frame to the end: the metadata blocks (a picture's among them)
    /// are not audio. Read just after them, where libFLAC's decoding position is the first frame.
    private func audioBytes() -> Int64? {
        guard let length = cursor.source.length else { return nil }
        var firstFrame: FLAC__uint64 = 0
        // Not for Ogg FLAC (libFLAC cannot say it): its headers are counted in.
        guard FLAC__stream_decoder_get_decode_position(decoder, &firstFrame) != 0 else { return length }
        return length - Int64(clamping: firstFrame)
    }

    deinit {
        FLAC__stream_decoder_delete(decoder)
    }

    /// Sets libFLAC up over the cursor and reads the metadata blocks, from the file's start.
    private func start() throws {
        _ = cursor.seek(offset: 0, whence: SEEK_SET)
        let me = Unmanaged.passUnretained(self).toOpaque()
        FLAC__stream_decoder_set_md5_checking(decoder, 1)
        let status = ogg
            ? FLAC__stream_decoder_init_ogg_stream(decoder, flacRead, flacSeek, flacTell, flacLength, flacEOF,
                                                   flacWrite, flacMetadata, flacError, me)
            : FLAC__stream_decoder_init_stream(decoder, flacRead, flacSeek, flacTell, flacLength, flacEOF,
                                               flacWrite, flacMetadata, flacError, me)
        guard status == FLAC__STREAM_DECODER_INIT_STATUS_OK else { throw openFailure("cannot start decoding") }
        finished = false
        guard FLAC__stream_decoder_process_until_end_of_metadata(decoder) != 0, streamError == nil else {
            throw openFailure(stateDescription)
        }
    }

    /// STREAMINFO's length (0 = unknown); one the file cannot hold even at the best compression
    /// FLAC has (a constant subframe: a few bytes per frame) counts as unknown.
    private static func plausibleTotal(_ total: UInt64, _ source: any ByteSource) -> Int64? {
        guard total > 0, total < UInt64(Int64.max) else { return nil }
        if let length = source.length, Int64(total) / 65535 > length { return nil }
        return Int64(total)
    }

    package func seek(toFrame frame: Int64) throws {
        if finished { try start() }
        narrow.clear()
        wide.clear()
        streamError = nil
        held = HeldFailure()
        let state = FLAC__stream_decoder_get_state(decoder)
        if state == FLAC__STREAM_DECODER_ABORTED || state == FLAC__STREAM_DECODER_SEEK_ERROR {
            FLAC__stream_decoder_flush(decoder)
        }
        let target = min(frame, info.totalFrames.map { max(0, $0 - 1) } ?? frame)
        seeking = true
        let sought = FLAC__stream_decoder_seek_absolute(decoder, UInt64(target)) != 0
        seeking = false
        guard sought else {
            let failure = cursor.failure ?? DecoderError.decodeFailed(.flac, "cannot seek to sample \(target)")
            FLAC__stream_decoder_flush(decoder)
            throw failure
        }
        position = target
    }

    package var inputPosition: Int64 { cursor.position }

    package func read(maxFrames: Int) throws -> PCMSamples {
        try held.rethrow()
        let channels = info.format.channels
        var ended = finished
        let isWide = info.format.isWide
        // Room for the frames asked and a block beyond them (libFLAC hands over whole blocks).
        let room = (maxFrames + (streamInfo?.maxBlock ?? 0)) * channels
        isWide ? wide.reserve(room) : narrow.reserve(room)
        while (isWide ? wide.count : narrow.count) < maxFrames * channels && !ended && streamError == nil {
            if FLAC__stream_decoder_process_single(decoder) == 0 {
                streamError = streamError ?? cursor.failure ?? DecoderError.decodeFailed(.flac, stateDescription)
            }
            ended = FLAC__stream_decoder_get_state(decoder) == FLAC__STREAM_DECODER_END_OF_STREAM
        }
        let samples: PCMSamples = isWide ? .int32(wide.take(upTo: maxFrames * channels))
            : .int16(narrow.take(upTo: maxFrames * channels))
        let count = samples.count
        position += Int64(count / channels)
        if let error = streamError {
            streamError = nil
            try held.hold(error, after: count)
        } else if count == 0 {
            try checkComplete()
        }
        return samples
    }

    /// At the end: fewer samples than STREAMINFO declares is a truncated or damaged file; a whole
    /// decode whose MD5 differs from STREAMINFO's is damaged (libFLAC checks it in `finish`).
    private func checkComplete() throws {
        let rate = Double(info.format.sampleRate)
        if let total = info.totalFrames, position < total {
            throw DecoderError.truncated(playedSeconds: Double(position) / rate, expectedSeconds: Double(total) / rate)
        }
        guard !finished else { return }
        finished = true
        if FLAC__stream_decoder_finish(decoder) == 0 {
            throw DecoderError.decodeFailed(.flac, "the decoded audio does not match the file's MD5 checksum")
        }
    }

    /// Takes a decoded frame: interleaves it at the output depth. A frame of another shape than
    /// STREAMINFO's is damage that happens to parse, and stops decoding.
    fileprivate func take(_ frame: FLAC__Frame, _ buffer: UnsafePointer<UnsafePointer<FLAC__int32>?>) -> Bool {
        guard let streamInfo, streamError == nil else { return false }
        let header = frame.header
        guard Int(header.channels) == streamInfo.channels, Int(header.bits_per_sample) == streamInfo.bits else {
            streamError = DecoderError.formatChanged(.flac)
            return false
        }
        let frames = Int(header.blocksize), channels = streamInfo.channels
        let shift = Int32(info.format.depth - streamInfo.bits)
        if info.format.isWide {
            wide.append(planes: buffer, channels: channels, frames: frames, shift: shift)
        } else {
            narrow.append(planes: buffer, channels: channels, frames: frames, shift: shift)
        }
        return true
    }

    fileprivate func learn(_ streamInfo: FLAC__StreamMetadata_StreamInfo) {
        self.streamInfo = (Int(streamInfo.sample_rate), Int(streamInfo.channels), Int(streamInfo.bits_per_sample),
                           streamInfo.total_samples, Int(streamInfo.max_blocksize))
    }

    fileprivate func fail(_ status: FLAC__StreamDecoderErrorStatus) {
        // A frame cut off by the end of the file: decoding ends there, and the end's check says
        // "truncated" when STREAMINFO declares more.
        guard !seeking, !cursor.isAtEnd else { return }
        let reason = switch status {
        case FLAC__STREAM_DECODER_ERROR_STATUS_LOST_SYNC: "lost sync (damaged or not FLAC data)"
        case FLAC__STREAM_DECODER_ERROR_STATUS_BAD_HEADER: "a damaged frame header"
        case FLAC__STREAM_DECODER_ERROR_STATUS_FRAME_CRC_MISMATCH: "a damaged frame (CRC mismatch)"
        case FLAC__STREAM_DECODER_ERROR_STATUS_UNPARSEABLE_STREAM: "a stream libFLAC cannot parse"
        default: "decoder error \(status.rawValue)"
        }
        streamError = streamError ?? cursor.failure ?? DecoderError.decodeFailed(.flac, reason)
    }

    private var stateDescription: String {
        String(cString: FLAC__stream_decoder_get_resolved_state_string(decoder))
    }

    private func openFailure(_ reason: String) -> any Error {
        cursor.failure ?? streamError.map { error in
            if case DecoderError.decodeFailed(_, let why) = error { return DecoderError.invalidStream(.flac, why) }
            return error
        } ?? DecoderError.invalidStream(.flac, reason)
    }
}

private func flacDecoder(_ client: UnsafeMutableRawPointer?) -> FLACDecoder {
    Unmanaged<FLACDecoder>.fromOpaque(client!).takeUnretainedValue()
}

private func flacRead(_ decoder: UnsafePointer<FLAC__StreamDecoder>?, _ buffer: UnsafeMutablePointer<FLAC__byte>?,
                      _ bytes: UnsafeMutablePointer<Int>?, _ client: UnsafeMutableRawPointer?) -> FLAC__StreamDecoderReadStatus {
    let n = flacDecoder(client).cursor.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: bytes!.pointee))
    bytes!.pointee = max(n, 0)
    if n < 0 { return FLAC__STREAM_DECODER_READ_STATUS_ABORT }
    return n == 0 ? FLAC__STREAM_DECODER_READ_STATUS_END_OF_STREAM : FLAC__STREAM_DECODER_READ_STATUS_CONTINUE
}

private func flacSeek(_ decoder: UnsafePointer<FLAC__StreamDecoder>?, _ offset: FLAC__uint64,
                      _ client: UnsafeMutableRawPointer?) -> FLAC__StreamDecoderSeekStatus {
    flacDecoder(client).cursor.seek(offset: Int64(offset), whence: SEEK_SET) >= 0
        ? FLAC__STREAM_DECODER_SEEK_STATUS_OK : FLAC__STREAM_DECODER_SEEK_STATUS_ERROR
}

private func flacTell(_ decoder: UnsafePointer<FLAC__StreamDecoder>?, _ offset: UnsafeMutablePointer<FLAC__uint64>?,
                      _ client: UnsafeMutableRawPointer?) -> FLAC__StreamDecoderTellStatus {
    offset!.pointee = FLAC__uint64(flacDecoder(client).cursor.position)
    return FLAC__STREAM_DECODER_TELL_STATUS_OK
}

private func flacLength(_ decoder: UnsafePointer<FLAC__StreamDecoder>?, _ length: UnsafeMutablePointer<FLAC__uint64>?,
                        _ client: UnsafeMutableRawPointer?) -> FLAC__StreamDecoderLengthStatus {
    guard let total = flacDecoder(client).cursor.source.length else { return FLAC__STREAM_DECODER_LENGTH_STATUS_UNSUPPORTED }
    length!.pointee = FLAC__uint64(total)
    return FLAC__STREAM_DECODER_LENGTH_STATUS_OK
}

private func flacEOF(_ decoder: UnsafePointer<FLAC__StreamDecoder>?, _ client: UnsafeMutableRawPointer?) -> FLAC__bool {
    flacDecoder(client).cursor.isAtEnd ? 1 : 0
}

private func flacWrite(_ decoder: UnsafePointer<FLAC__StreamDecoder>?, _ frame: UnsafePointer<FLAC__Frame>?,
                       _ buffer: UnsafePointer<UnsafePointer<FLAC__int32>?>?,
                       _ client: UnsafeMutableRawPointer?) -> FLAC__StreamDecoderWriteStatus {
    flacDecoder(client).take(frame!.pointee, buffer!)
        ? FLAC__STREAM_DECODER_WRITE_STATUS_CONTINUE : FLAC__STREAM_DECODER_WRITE_STATUS_ABORT
}

private func flacMetadata(_ decoder: UnsafePointer<FLAC__StreamDecoder>?, _ metadata: UnsafePointer<FLAC__StreamMetadata>?,
                          _ client: UnsafeMutableRawPointer?) {
    guard let metadata, metadata.pointee.type == FLAC__METADATA_TYPE_STREAMINFO else { return }
    flacDecoder(client).learn(metadata.pointee.data.stream_info)
}

private func flacError(_ decoder: UnsafePointer<FLAC__StreamDecoder>?, _ status: FLAC__StreamDecoderErrorStatus,
                       _ client: UnsafeMutableRawPointer?) {
    flacDecoder(client).fail(status)
}

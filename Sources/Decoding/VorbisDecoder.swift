import CVorbisFile
import Glibc
import Model
import Parsers

/// Ogg Vorbis through libvorbisfile, reading from a `ByteSource` through its callbacks.
///
/// `ov_read` at 16 bits is what `oggdec` writes, so the PCM equals it sample for sample. Vorbis
/// is gapless by design (no padding to strip). Channels beyond two are reordered from Vorbis's
/// order to WAVE/FLAC's (5.1: FL FC FR RL RR LFE → FL FR FC LFE BL BR). Chained links follow
/// each other gaplessly; a link of another rate or channel count changes `info` at its first read
/// (the output reopens its stream), and positions are then counted in that link's rate.
package final class VorbisDecoder: AudioDecoder {
    private let file: UnsafeMutablePointer<OggVorbis_File>
    private let cursor: ByteCursor
    package private(set) var info: TrackInfo
    package private(set) var position: Int64 = 0
    private var held = HeldFailure()
    /// For each output channel, the Vorbis channel it comes from; nil when the orders agree.
    private var order: [Int]?
    /// Whether every link has the first one's rate and channels: then positions are samples of the
    /// whole chain and seeks exact; otherwise they go by time.
    private let uniform: Bool
    /// Samples of a link in another format, decoded at the end of the previous read: the next
    /// read switches to that link and starts with them.
    private var carried: (bytes: [UInt8], link: Int32)?
    /// The link whose samples the last read returned (-1 before the first).
    private var link: Int32 = -1
    /// A link that began at the last read's first sample.
    private var linkStart: LinkStart?

    package init(source: any ByteSource) throws {
        let cursor = ByteCursor(source: source)
        let file = UnsafeMutablePointer<OggVorbis_File>.allocate(capacity: 1)
        // A live stream (no length) is read as a stream: its links come one after another.
        let seekable = source.length != nil
        var status = Self.open(file, cursor, seekable: seekable)
        // Opening a seekable stream maps every link; a damaged later link fails that. Read as a
        // stream instead, the links before the damage play (and the file cannot seek).
        if seekable, status != 0, status != OV_ENOTVORBIS, cursor.failure == nil, cursor.seek(offset: 0, whence: SEEK_SET) == 0 {
            status = Self.open(file, cursor, seekable: false)
        }
        guard status == 0 else {
            file.deallocate()
            throw cursor.failure ?? DecoderError.invalidStream(.vorbis, Self.describe(Int(status)))
        }
        self.file = file
        self.cursor = cursor
        // The first link: the one that plays first (-1 means "the current", which opening may leave elsewhere).
        guard let first = ov_info(file, 0)?.pointee else {
            ov_clear(file)
            file.deallocate()
            throw DecoderError.invalidStream(.vorbis, "no stream header")
        }
        let format = PCMFormat(sampleRate: first.rate, channels: Int(first.channels))
        uniform = (0..<ov_streams(file)).allSatisfy { link in
            ov_info(file, Int32(link)).map { $0.pointee.rate == first.rate && $0.pointee.channels == first.channels } ?? true
        }
        info = TrackInfo(codec: .vorbis, format: format, totalFrames: nil)
        info.totalFrames = totalFrames(at: format.sampleRate)
        // Over the whole chain, its headers left out; a live stream's as its encoder announced it.
        let bitsPerSecond = seekable ? ov_bitrate(file, -1) : first.bitrate_nominal
        info.bitrate = bitsPerSecond > 0 ? Int((Double(bitsPerSecond) / 1000).rounded()) : nil
        order = Self.waveOrder(channels: format.channels)
        try Self.check(format)
    }

    /// Formats the player takes; a link beyond them is a damaged or hostile header.
    private static func check(_ format: PCMFormat) throws {
        if format.sampleRate > FLACDecoder.maxSampleRate || format.channels > FLACDecoder.maxChannels {
            throw DecoderError.invalidStream(.vorbis, "\(format.sampleRate) Hz, \(format.channels) channels "
                                             + "(cloudplayerd plays up to 192 kHz and 8 channels)")
        }
    }

    /// The chain's length in frames of `rate`: exact samples when all links share it, else its
    /// duration at that rate.
    private func totalFrames(at rate: Int) -> Int64? {
        if uniform {
            let total = ov_pcm_total(file, -1)
            return total >= 0 ? Int64(total) : nil
        }
        let seconds = ov_time_total(file, -1)
        return seconds >= 0 ? Int64((seconds * Double(rate)).rounded()) : nil
    }

    /// Makes `link`'s format the current one, at `seconds` into the chain.
    private func switchFormat(to link: Int32, at seconds: Double) throws {
        guard let shape = ov_info(file, link)?.pointee else { throw DecoderError.formatChanged(.vorbis) }
        let format = PCMFormat(sampleRate: shape.rate, channels: Int(shape.channels))
        try Self.check(format)
        info.format = format
        info.totalFrames = totalFrames(at: format.sampleRate)
        order = Self.waveOrder(channels: format.channels)
        position = max(0, Int64((seconds * Double(format.sampleRate)).rounded()))
    }

    /// `ov_open_callbacks` over the cursor. On failure vorbisfile clears the struct itself.
    private static func open(_ file: UnsafeMutablePointer<OggVorbis_File>, _ cursor: ByteCursor, seekable: Bool) -> Int32 {
        let callbacks = ov_callbacks(read_func: vorbisRead, seek_func: seekable ? vorbisSeek : nil, close_func: nil,
                                     tell_func: vorbisTell)
        return ov_open_callbacks(Unmanaged.passUnretained(cursor).toOpaque(), file, nil, 0, callbacks)
    }

    deinit {
        ov_clear(file)
        file.deallocate()
    }

    package func seek(toFrame frame: Int64) throws {
        held = HeldFailure()
        carried = nil
        linkStart = nil
        let status = uniform ? ov_pcm_seek(file, ogg_int64_t(frame)) : ov_time_seek(file, Double(frame) / Double(info.format.sampleRate))
        guard status == 0 else { throw cursor.failure ?? DecoderError.decodeFailed(.vorbis, Self.describe(Int(status))) }
        if uniform {
            position = frame
        } else {
            try switchFormat(to: file.pointee.current_link, at: ov_time_tell(file))
        }
        link = file.pointee.current_link
    }

    package func takeLinkStart() -> LinkStart? {
        defer { linkStart = nil }
        return linkStart
    }

    package var inputPosition: Int64 { cursor.position }

    package func read(maxFrames: Int) throws -> PCMSamples {
        try held.rethrow()
        var start: [UInt8] = []
        linkStart = nil
        if let carried {
            self.carried = nil
            if let shape = ov_info(file, carried.link)?.pointee,
               shape.rate != info.format.sampleRate || Int(shape.channels) != info.format.channels {
                // Where the samples played so far end, counted in the new link's rate.
                try switchFormat(to: carried.link, at: Double(position) / Double(info.format.sampleRate))
            }
            link = carried.link
            linkStart = LinkStart(frame: 0, tags: tags(of: carried.link))
            start = carried.bytes
        }
        let channels = info.format.channels
        let frameBytes = info.format.bytesPerFrame
        // Uninitialised: vorbisfile writes every sample we keep, so zeroing first is wasted work.
        let capacity = max(maxFrames * channels, start.count / 2)
        var samples = try [Int16](unsafeUninitializedCapacity: capacity) { buffer, kept in
            let bytes = UnsafeMutableRawBufferPointer(buffer)
            start.withUnsafeBytes { bytes.copyMemory(from: $0) }
            var filled = start.count
            while bytes.count - filled >= frameBytes {
                var link: Int32 = 0
                let room = Int32(clamping: bytes.count - filled)
                let result = ov_read(file, (bytes.baseAddress! + filled).assumingMemoryBound(to: CChar.self), room, 0, 2, 1, &link)
                if result > 0 {
                    // Another link does not share this read: its samples wait for the next, which
                    // starts with them (in their format, with their comments).
                    if link != self.link {
                        carried = (Array(UnsafeRawBufferPointer(rebasing: bytes[filled..<(filled + result)])), link)
                        break
                    }
                    filled += result
                } else if result == 0 {
                    break
                } else if result != OV_HOLE {  // a hole (lost pages) skips samples; decoding goes on
                    try held.hold(cursor.failure ?? DecoderError.decodeFailed(.vorbis, Self.describe(result)), after: filled)
                    break
                }
            }
            kept = filled / frameBytes * channels
        }
        // The read met the next link before any sample: that link's format starts now.
        if samples.isEmpty, carried != nil { return try read(maxFrames: maxFrames) }
        if let order { reorder(&samples, order) }
        position += Int64(samples.count / channels)
        if samples.isEmpty, try !OggTail.endsWithEndOfStream(cursor.source) {
            let rate = Double(info.format.sampleRate)
            throw DecoderError.truncated(playedSeconds: Double(position) / rate, expectedSeconds: nil)
        }
        return .int16(samples)
    }

    /// A link's comments (libvorbisfile keeps only the current link's in a stream read as one).
    private func tags(of link: Int32) -> TrackTags {
        guard let comment = ov_comment(file, link)?.pointee else { return TrackTags() }
        return LinkComments.tags(comment.user_comments, lengths: comment.comment_lengths, count: comment.comments)
    }

    private func reorder(_ samples: inout [Int16], _ order: [Int]) {
        let channels = order.count
        samples.withUnsafeMutableBufferPointer { buffer in
            var frame = [Int16](repeating: 0, count: channels)
            var start = 0
            while start < buffer.count {
                for channel in 0..<channels { frame[channel] = buffer[start + channel] }
                for channel in 0..<channels { buffer[start + channel] = frame[order[channel]] }
                start += channels
            }
        }
    }

    /// Vorbis I §4.3.9's channel orders, as sources for WAVE/FLAC's; nil up to stereo and for 4.0,
    /// where they agree.
    static func waveOrder(channels: Int) -> [Int]? {
        switch channels {
        case 3: [0, 2, 1]                    // FL FC FR → FL FR FC
        case 5: [0, 2, 1, 3, 4]              // FL FC FR RL RR → FL FR FC BL BR
        case 6: [0, 2, 1, 5, 3, 4]           // FL FC FR RL RR LFE → FL FR FC LFE BL BR
        case 7: [0, 2, 1, 6, 5, 3, 4]        // FL FC FR SL SR RC LFE → FL FR FC LFE BC SL SR
        case 8: [0, 2, 1, 7, 5, 6, 3, 4]     // FL FC FR SL SR RL RR LFE → FL FR FC LFE BL BR SL SR
        default: nil
        }
    }

    private static func describe(_ code: Int) -> String {
        switch code {
        case Int(OV_EREAD): "read error"
        case Int(OV_EFAULT): "internal error"
        case Int(OV_EIMPL): "uses an unsupported feature"
        case Int(OV_EINVAL): "invalid argument"
        case Int(OV_ENOTVORBIS): "not an Ogg Vorbis stream"
        case Int(OV_EBADHEADER): "bad Vorbis header"
        case Int(OV_EVERSION): "unknown Vorbis version"
        case Int(OV_EBADLINK): "damaged stream (bad link)"
        case Int(OV_ENOSEEK): "stream is not seekable"
        default: "error \(code)"
        }
    }
}

private func vorbisRead(_ buffer: UnsafeMutableRawPointer?, _ size: Int, _ count: Int, _ source: UnsafeMutableRawPointer?) -> Int {
    let cursor = Unmanaged<ByteCursor>.fromOpaque(source!).takeUnretainedValue()
    let n = cursor.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: size * count))
    // vorbisfile tells an error from the end by errno after a 0.
    if n < 0 { errno = EIO }
    return n < 0 ? 0 : n / max(size, 1)
}

private func vorbisSeek(_ source: UnsafeMutableRawPointer?, _ offset: ogg_int64_t, _ whence: Int32) -> Int32 {
    let cursor = Unmanaged<ByteCursor>.fromOpaque(source!).takeUnretainedValue()
    return cursor.seek(offset: offset, whence: whence) >= 0 ? 0 : -1
}

private func vorbisTell(_ source: UnsafeMutableRawPointer?) -> Int {
    Int(Unmanaged<ByteCursor>.fromOpaque(source!).takeUnretainedValue().position)
}

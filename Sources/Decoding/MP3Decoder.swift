import CMPG123
import Glibc
import Model
import Parsers

/// MPEG audio through libmpg123, reading from a `ByteSource` through replaced I/O callbacks.
///
/// Gapless is on (LAME/Xing encoder delay and padding removed) and seeks are sample-accurate, so
/// the PCM equals `mpg123 -w` of the same file — with one exception: a seek in a VBR file whose
/// bytes before the target are not here goes through its Xing seek table (`MP3Landing`) instead
/// of fetching them, and lands near the target (`MP3SeekTests.tableBound`: a quarter of a
/// second on a one-minute file), in whole frames of the file. The position reported is then the
/// target's, off by as much, until those bytes arrive and the frames before the landing are
/// counted (`MP3EstimatedCount`) — the player reads it once, as the track starts, so its clock
/// stays off by that much until the next seek. The end is exact regardless: the track ends at
/// its last gapless sample, the padding counted from the end of the stream.
package final class MP3Decoder: AudioDecoder {
    private let handle: OpaquePointer
    private let cursor: ByteCursor
    private let exactLength: Bool
    package let info: TrackInfo
    package private(set) var position: Int64 = 0
    private var held = HeldFailure()
    /// Where the frames lie, read at the first seek (nil inside: nothing tells).
    private var layout: MPEGStreamLayout??
    /// The last seek landed through the seek table: libmpg123 counts frames from an estimate.
    private var estimated: MP3EstimatedCount?

    private static let libraryReady: Void = { _ = mpg123_init() }()

    init(source: any ByteSource, exactLength: Bool) throws {
        _ = Self.libraryReady
        var error: Int32 = 0
        guard let handle = mpg123_new(nil, &error) else {
            throw DecoderError.invalidStream(.mp3, String(cString: mpg123_plain_strerror(error)))
        }
        self.handle = handle
        self.cursor = ByteCursor(source: source)
        self.exactLength = exactLength
        do {
            info = try Self.open(handle, cursor: cursor)
        } catch {
            mpg123_delete(handle)
            throw error
        }
    }

    deinit {
        mpg123_close(handle)
        mpg123_delete(handle)
    }

    private static func open(_ handle: OpaquePointer, cursor: ByteCursor) throws -> TrackInfo {
        func check(_ status: Int32) throws {
            guard status == MPG123_OK.rawValue else { throw failure(handle, cursor, opening: true) }
        }
        // Not MPG123_NO_FRANKENSTEIN: it ends decoding at the first damaged stretch that looks
        // like another kind of frame, where we want to play on past it. (The price: for such
        // junk, libmpg123 1.31's layer II code prints a line to stderr that QUIET cannot stop.)
        var flags = MPG123_GAPLESS.rawValue | MPG123_QUIET.rawValue
        // libmpg123 peeks at the end for an ID3v1, APE or Lyrics3 tag (where the audio ends)
        // only if those bytes are here: from a server it was a request of its own, a round trip
        // before the first sample. Without it a tag at the end is junk it steps over; it is told
        // the file's size instead, and that it may seek (which it would assume it may not).
        let peeksAtEnd = cursor.source.length.map { $0 <= 128 || cursor.source.holds($0 - 128..<$0) } ?? true
        if !peeksAtEnd { flags |= MPG123_NO_PEEK_END.rawValue | MPG123_FORCE_SEEKABLE.rawValue }
        try check(mpg123_param2(handle, Int32(MPG123_ADD_FLAGS.rawValue), Int(flags), 0))
        // Skip damaged stretches however long, and play on after them (a damaged file then ends
        // with an error that says so, after everything playable was played).
        try check(mpg123_param2(handle, Int32(MPG123_RESYNC_LIMIT.rawValue), -1, 0))
        // Its default, stated: a seek decodes from this many frames before the target, and
        // `MP3Landing` lands before that.
        try check(mpg123_param2(handle, Int32(MPG123_PREFRAMES.rawValue), Int(MP3Landing.libraryPreroll), 0))
        // Every rate and channel count the stream has, always as signed 16-bit: no resampling.
        try check(mpg123_format_none(handle))
        var rates: UnsafePointer<Int>?
        var count = 0
        mpg123_rates(&rates, &count)
        for index in 0..<count {
            try check(mpg123_format2(handle, rates![index], Int32(MPG123_MONO.rawValue | MPG123_STEREO.rawValue),
                                     Int32(MPG123_ENC_SIGNED_16.rawValue)))
        }
        // A live stream cannot seek: libmpg123 then reads it as a stream, never looking for its end.
        try check(mpg123_replace_reader_handle(handle, mp3Read, cursor.source.length == nil ? nil : mp3Seek, nil))
        try check(mpg123_open_handle(handle, Unmanaged.passUnretained(cursor).toOpaque()))
        if !peeksAtEnd, let length = cursor.source.length { try check(mpg123_set_filesize(handle, off_t(length))) }
        var rate = 0
        var channels: Int32 = 0
        var encoding: Int32 = 0
        try check(mpg123_getformat(handle, &rate, &channels, &encoding))
        // From here on only this format: a damaged stretch that parses as frames of another rate
        // or channel count is converted by libmpg123 instead of switching formats midway.
        try check(mpg123_format_none(handle))
        let layout = channels == 1 ? MPG123_MONO.rawValue : MPG123_STEREO.rawValue
        try check(mpg123_format2(handle, rate, Int32(layout), Int32(MPG123_ENC_SIGNED_16.rawValue)))
        let length = Int64(mpg123_length(handle))
        let possible = length >= 0 && length <= (maxFrames(cursor) ?? length)
        var info = TrackInfo(codec: .mp3, format: PCMFormat(sampleRate: rate, channels: Int(channels)),
                             totalFrames: possible ? length : nil)
        info.bitrate = bitrate(handle, cursor, info.duration)
        return info
    }

    /// A constant rate as the frames say it; a variable one as the bytes from the first frame to
    /// the end over the length (a Xing header's rate is its first frame's, not the stream's).
    private static func bitrate(_ handle: OpaquePointer, _ cursor: ByteCursor, _ duration: Double?) -> Int? {
        var frame = mpg123_frameinfo2()
        guard mpg123_info2(handle, &frame) == MPG123_OK.rawValue else { return nil }
        if frame.vbr == MPG123_ABR.rawValue, frame.abr_rate > 0 { return Int(frame.abr_rate) }
        guard frame.vbr == MPG123_VBR.rawValue, let length = cursor.source.length else {
            return frame.bitrate > 0 ? Int(frame.bitrate) : nil  // 0: free format
        }
        return TrackInfo.kilobitsPerSecond(bytes: length - Int64(mpg123_framepos(handle)), seconds: duration)
    }

    /// The most sample frames the stream can hold, when its size is known: a length beyond it
    /// is a forged header, and a seek beyond it only makes libmpg123 skip through nothing.
    private static func maxFrames(_ cursor: ByteCursor) -> Int64? {
        cursor.source.length.map(MPEGLengthHeader.maxSamples(inBytes:))
    }

    package func seek(toFrame frame: Int64) throws {
        let target = min(frame, Self.maxFrames(cursor) ?? frame)
        if estimated != nil, let layout = try streamLayout() {
            // Back to a count that is true: frame 0 at its place, then on as if never estimated.
            // A frame seek with gapless on sets libmpg123's end cut again (`clearEndCut`).
            try index([layout.firstFrame], step: 1)
            guard mpg123_seek_frame(handle, 0, SEEK_SET) >= 0 else { throw Self.failure(handle, cursor, opening: false) }
            estimated = nil
        }
        // libmpg123 reads from the last frame its index knows before the target: told where a
        // frame near the target lies, it reads only from there.
        if let layout = try streamLayout(), let landing = try MP3Landing.find(for: target, in: layout, source: cursor.source) {
            try index([layout.firstFrame, landing.offset], step: landing.frame)
            if !landing.isExact {
                try clearEndCut(landing)
                estimated = MP3EstimatedCount(landing: landing, encoderPadding: state(MPG123_ENC_PADDING),
                                              decoderDelay: state(MPG123_DEC_DELAY))
            }
        }
        let result = mpg123_seek(handle, off_t(target), SEEK_SET)
        guard result >= 0 else { throw Self.failure(handle, cursor, opening: false) }
        position = Int64(result)
    }

    /// libmpg123 cuts its gapless end at a frame number of its own count, which after a landing
    /// through the table runs from the estimate: a count ahead of the file's would cut the last
    /// real audio (and play the frames after the cut whole, as if appended), one behind keeps the
    /// padding. Its end cut is cleared by a frame seek with gapless off (libmpg123's
    /// `frame_set_frameseek` sets no end then), and only a frame seek sets it again: the sample
    /// seek that follows, gapless on, leaves it cleared, and `MP3EstimatedCount` cuts the end.
    /// The frame sought is the one whose pre-roll starts at the landing: the bytes read are
    /// those the sample seek reads anyway.
    private func clearEndCut(_ landing: MP3Landing) throws {
        let gapless = Int(MPG123_GAPLESS.rawValue)
        guard mpg123_param2(handle, Int32(MPG123_REMOVE_FLAGS.rawValue), gapless, 0) == MPG123_OK.rawValue else {
            throw Self.failure(handle, cursor, opening: false)
        }
        let result = mpg123_seek_frame(handle, off_t(landing.frame + MP3Landing.libraryPreroll), SEEK_SET)
        guard mpg123_param2(handle, Int32(MPG123_ADD_FLAGS.rawValue), gapless, 0) == MPG123_OK.rawValue, result >= 0 else {
            throw Self.failure(handle, cursor, opening: false)
        }
    }

    /// One of libmpg123's numbers about the stream (-1 when it has none).
    private func state(_ key: mpg123_state) -> Int {
        var value = 0
        guard mpg123_getstate2(handle, Int32(key.rawValue), &value, nil) == MPG123_OK.rawValue else { return -1 }
        return value
    }

    /// Replaces libmpg123's frame index: frame `i · step` starts at `offsets[i]`.
    private func index(_ offsets: [Int64], step: Int64) throws {
        var entries = offsets.map { off_t($0) }
        guard mpg123_set_index(handle, &entries, off_t(step), entries.count) == MPG123_OK.rawValue else {
            throw Self.failure(handle, cursor, opening: false)
        }
    }

    /// The stream's layout, read from its first bytes (here already: the decoder opened there),
    /// at the first seek. Used only if its frame 0 is where libmpg123 found frame 0 as it opened
    /// (the first entry of its own index): else the frames would be counted from another place.
    private func streamLayout() throws -> MPEGStreamLayout? {
        if let layout { return layout }
        var found: MPEGStreamLayout?
        if let length = cursor.source.length {
            let start = Int64(ID3v2Parser.tagSize(try cursor.source.readBytes(at: 0, count: 10)[...]) ?? 0)
            let window = try cursor.source.readBytes(at: start, count: 16 * 1024)
            found = MPEGStreamLayout(window: window[...], windowStart: start, fileLength: length)
        }
        var offsets: UnsafeMutablePointer<off_t>?
        var step: off_t = 0
        var fill = 0
        if mpg123_index(handle, &offsets, &step, &fill) != MPG123_OK.rawValue || fill == 0 || offsets.map({ Int64($0[0]) }) != found?.firstFrame {
            found = nil
        }
        layout = .some(found)
        return found
    }

    package var inputPosition: Int64 { cursor.position }

    package func read(maxFrames: Int) throws -> PCMSamples {
        try held.rethrow()
        try countLanding()
        let channels = info.format.channels
        // After a landing through the table, the samples held back come first, and as many more
        // are decoded as are held back at the end of this read.
        let carried = estimated?.carried ?? []
        let wanted = maxFrames * channels + (estimated?.padding ?? 0) * channels
        var stop = MP3EstimatedCount.Stop.full
        // Uninitialised: libmpg123 writes every sample we keep, so zeroing first is wasted work.
        var samples = try [Int16](unsafeUninitializedCapacity: wanted) { buffer, kept in
            _ = buffer.initialize(from: carried)
            let bytes = UnsafeMutableRawBufferPointer(UnsafeMutableBufferPointer(rebasing: buffer[carried.count...]))
            var filled = 0
            while filled < bytes.count && stop == .full {
                var done = 0
                let status = mpg123_read(handle, bytes.baseAddress! + filled, bytes.count - filled, &done)
                filled += done
                switch status {
                case MPG123_OK.rawValue:
                    break
                case MPG123_DONE.rawValue:
                    stop = .streamEnd
                case MPG123_NEW_FORMAT.rawValue:
                    var rate = 0
                    var newChannels: Int32 = 0
                    var encoding: Int32 = 0
                    mpg123_getformat(handle, &rate, &newChannels, &encoding)
                    if rate != info.format.sampleRate || Int(newChannels) != channels {
                        try held.hold(DecoderError.formatChanged(.mp3), after: carried.count + filled)
                        stop = .failure
                    }
                default:
                    try held.hold(Self.failure(handle, cursor, opening: false), after: carried.count + filled)
                    stop = .failure
                }
            }
            kept = carried.count + filled / info.format.bytesPerFrame * channels
        }
        estimated?.release(&samples, channels: channels, stop: stop)
        position += Int64(samples.count / channels)
        if samples.isEmpty { try checkComplete() }
        return .int16(samples)
    }

    /// Once every byte before a landing through the table is here, counts the frames before it:
    /// the landing's true frame number corrects the position by the estimate's error (whole
    /// frames: libmpg123's count is off by exactly that from the landing on). Tried once; a
    /// stream whose frames do not lie back to back there keeps its estimated position.
    private func countLanding() throws {
        guard let run = estimated, !run.counted, cursor.source.holds(0..<run.landing.offset),
              let layout = try streamLayout() else { return }
        estimated?.counted = true
        let source = cursor.source
        guard let frame = try layout.frameNumber(at: run.landing.offset, read: { try source.readBytes(in: $0) }) else { return }
        position += (frame - run.landing.frame) * Int64(layout.samplesPerFrame)
        estimated?.positionKnown = true
    }

    /// At the end: a file whose header declares more frames than it yielded is truncated or
    /// damaged. (Two MPEG frames of slack for encoders that count loosely.)
    private func checkComplete() throws {
        // Counted from an estimate, the position at the end says nothing of the file.
        guard exactLength, estimated?.positionKnown ?? true, let total = info.totalFrames, abs(total - position) > 2 * 1152 else { return }
        let rate = Double(info.format.sampleRate)
        throw DecoderError.truncated(playedSeconds: Double(position) / rate, expectedSeconds: Double(total) / rate)
    }

    private static func failure(_ handle: OpaquePointer, _ cursor: ByteCursor, opening: Bool) -> Error {
        if let readError = cursor.failure { return readError }
        let reason = String(cString: mpg123_strerror(handle))
        return opening ? DecoderError.invalidStream(.mp3, reason) : DecoderError.decodeFailed(.mp3, reason)
    }
}

private func mp3Read(_ handle: UnsafeMutableRawPointer?, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    let cursor = Unmanaged<ByteCursor>.fromOpaque(handle!).takeUnretainedValue()
    return cursor.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: count))
}

private func mp3Seek(_ handle: UnsafeMutableRawPointer?, _ offset: off_t, _ whence: Int32) -> off_t {
    let cursor = Unmanaged<ByteCursor>.fromOpaque(handle!).takeUnretainedValue()
    return off_t(cursor.seek(offset: Int64(offset), whence: whence))
}

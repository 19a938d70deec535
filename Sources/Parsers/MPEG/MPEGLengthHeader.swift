import Model

/// The length information an encoder puts in an MP3's first frame: a Xing/Info header (with
/// LAME's encoder delay and padding) or a Fraunhofer VBRI header. With it, the duration is exact
/// (to the sample, as mpg123 decodes with gapless on) instead of a bitrate estimate.
package struct MPEGLengthHeader: Equatable {
    /// Audio frames in the stream, the header's own frame not counted.
    package var frames: Int?
    /// Bytes of audio, if given (a Xing/Info header counts its own frame in them).
    var bytes: Int?
    /// The header says "Info": LAME's mark of a constant-bitrate stream.
    var marksConstantBitrate = false
    /// A Xing header's seek table, as written: entry i is where i % of the duration lies, in
    /// 1/256 of the bytes. Unchecked here (`XingSeekTable` checks it).
    var toc: [UInt8]?
    /// Samples the encoder added at the start and end (LAME tag), which a gapless decoder drops.
    var encoderDelay = 0
    var encoderPadding = 0
    /// The gains LAME measured as it encoded (its "radio" gain is the track's, "audiophile" the
    /// album's) and the peak it saw: used only when the file has no ReplayGain tag.
    package var replayGain = ReplayGain()

    /// The header in the frame that starts `frame` (header included), if there is one.
    package init?(frame: ArraySlice<UInt8>, header: MPEGFrameHeader) {
        if let xing = Self.xing(frame, header: header) {
            self = xing
        } else if let vbri = Self.vbri(frame) {
            self = vbri
        } else {
            return nil
        }
    }

    private init(frames: Int?, bytes: Int?) {
        self.frames = frames
        self.bytes = bytes
    }

    /// No MPEG audio holds more than 24 sample frames per byte (MPEG-2 layer III, 8 kbit/s at
    /// 24 kHz); twice that bounds the length a header may claim for the bytes it has. A forged
    /// frame count otherwise makes a 2 KB file a year long — and libmpg123 skips frame by frame
    /// past the end towards a seek target there (found by fuzzing: 41 s in one seek).
    static let maxSamplesPerByte: Int64 = 48

    /// The most sample frames `bytes` of MPEG audio can hold.
    package static func maxSamples(inBytes bytes: Int64) -> Int64 {
        let (samples, overflow) = bytes.multipliedReportingOverflow(by: maxSamplesPerByte)
        return overflow ? .max : samples
    }

    /// Samples a gapless decoder outputs, if the frame count is known and `audioBytes` can hold them.
    package func samples(samplesPerFrame: Int, audioBytes: Int64) -> Int64? {
        guard let frames else { return nil }
        let total = Int64(frames) * Int64(samplesPerFrame) - Int64(encoderDelay) - Int64(encoderPadding)
        guard total <= Self.maxSamples(inBytes: audioBytes) else { return nil }
        return max(0, total)
    }

    private static func xing(_ frame: ArraySlice<UInt8>, header: MPEGFrameHeader) -> MPEGLengthHeader? {
        var reader = ByteReader(frame)
        guard reader.skip(header.xingOffset), let tag = reader.take(4),
              tag.elementsEqual("Xing".utf8) || tag.elementsEqual("Info".utf8),
              let flags = reader.u32be() else { return nil }
        var result = MPEGLengthHeader(frames: nil, bytes: nil)
        result.marksConstantBitrate = tag.elementsEqual("Info".utf8)
        if flags & 1 != 0 {
            guard let frames = reader.u32be() else { return nil }
            result.frames = frames
        }
        if flags & 2 != 0 {
            guard let bytes = reader.u32be() else { return nil }
            result.bytes = bytes
        }
        if flags & 4 != 0 {
            guard let table = reader.take(100) else { return result }
            result.toc = Array(table)
        }
        if flags & 8 != 0 { guard reader.skip(4) else { return result } }  // quality
        // LAME's extension: encoder name (9), revision, lowpass, peak (4), two gains (2 + 2),
        // flags, bitrate, then 12 bits of delay and 12 of padding.
        guard let encoder = reader.take(9), reader.skip(2), let peak = reader.u32be(), let radio = reader.bigEndian(2),
              let audiophile = reader.bigEndian(2), reader.skip(2), let packed = reader.bigEndian(3) else { return result }
        let known = ["LAME", "Lavf", "Lavc", "GOGO"].contains { encoder.prefix(4).elementsEqual($0.utf8) }
        guard known else { return result }
        result.encoderDelay = Int(packed >> 12)
        result.encoderPadding = Int(packed & 0xFFF)
        if encoder.prefix(4).elementsEqual("LAME".utf8) {
            result.replayGain = lameGains(radio: UInt16(radio), audiophile: UInt16(audiophile), peak: peak,
                                          version: TextDecoding.latin1(encoder.dropFirst(4)))
        }
        return result
    }

    /// LAME's gain fields: 3 bits naming the gain (1 radio, 2 audiophile), 3 saying who set it
    /// (0: nobody), a sign bit and 9 bits of tenths of a dB. The peak is a fixed-point fraction of
    /// full scale with 23 bits after the point (0: not measured). LAME before 3.95.1 aimed at
    /// 83 dB, not ReplayGain's 89: 6 dB more for its gains.
    private static func lameGains(radio: UInt16, audiophile: UInt16, peak: Int, version: String) -> ReplayGain {
        func decibels(_ field: UInt16, name: UInt16) -> Double? {
            guard field >> 13 == name, (field >> 10) & 0x7 != 0 else { return nil }
            let tenths = Double(field & 0x1FF)
            return (field & 0x200 != 0 ? -tenths : tenths) / 10
        }
        let numbers = version.split(separator: ".").map { Int($0.prefix { $0.isNumber }) ?? 0 }
        let (major, minor) = (numbers.first ?? 0, numbers.count > 1 ? numbers[1] : 0)
        // "3.95.1" is written "3.95." or "3.95r" in the nine bytes: 3.96 on is the new reference.
        let oldReference = major < 3 || (major == 3 && minor < 96)
        let adjustment = oldReference ? 6.0 : 0
        return ReplayGain(trackGain: decibels(radio, name: 1).map { $0 + adjustment },
                          trackPeak: peak > 0 ? Double(peak) / Double(1 << 23) : nil,
                          albumGain: decibels(audiophile, name: 2).map { $0 + adjustment })
    }

    private static func vbri(_ frame: ArraySlice<UInt8>) -> MPEGLengthHeader? {
        var reader = ByteReader(frame)
        // Always 32 bytes after the four-byte header, whatever the mode.
        guard reader.skip(36), reader.take(4)?.elementsEqual("VBRI".utf8) == true,
              reader.skip(6), let bytes = reader.u32be(), let frames = reader.u32be() else { return nil }
        return MPEGLengthHeader(frames: frames, bytes: bytes)
    }
}

/// FLAC's STREAMINFO block: the stream's rate and exact length in samples, which a scan turns
/// into an exact duration without decoding.
package struct FLACStreamInfo: Equatable {
    /// The block's size: anything shorter is damaged.
    static let size = 34

    package var sampleRate: Int
    package var channels: Int
    package var bitsPerSample: Int
    /// Samples per channel; 0 when the encoder did not know.
    package var totalSamples: Int64

    /// Parses a STREAMINFO body; nil if it is too short or names no rate.
    init?(_ body: ArraySlice<UInt8>) {
        guard body.count >= Self.size else { return nil }
        let b = Array(body.prefix(Self.size))
        sampleRate = Int(b[10]) << 12 | Int(b[11]) << 4 | Int(b[12]) >> 4
        channels = Int((b[12] >> 1) & 0x07) + 1
        bitsPerSample = Int((b[12] & 0x01) << 4 | b[13] >> 4) + 1
        totalSamples = Int64(b[13] & 0x0F) << 32 | Int64(b[14]) << 24 | Int64(b[15]) << 16 | Int64(b[16]) << 8 | Int64(b[17])
        guard sampleRate > 0 else { return nil }
    }

    /// Seconds, when the length is known.
    var duration: Double? {
        totalSamples > 0 ? Double(totalSamples) / Double(sampleRate) : nil
    }
}

import Model
import Parsers

/// Where an MP3 seek starts reading when the bytes before its target are not here: a frame a
/// few frames before the target, found from the bitrate (exact) or the Xing seek table
/// (approximate), so libmpg123 reads on from there instead of from the start of the file.
struct MP3Landing: Equatable {
    /// How many frames before the target's the landing lies. libmpg123 decodes from 4 frames
    /// before the target's (MPG123_PREFRAMES: the bit reservoir reaches up to 511 bytes back)
    /// and uses an index entry only at or before that frame — a later one sends it reading from
    /// the start. Its own count is ahead of gapless samples by the encoder delay, so the
    /// target's frame is at least `target / samplesPerFrame`; one frame more is the table's
    /// leeway for a landing a frame later than aimed at.
    static let prerollFrames: Int64 = libraryPreroll + 2
    /// libmpg123's MPG123_PREFRAMES (its default; `MP3Decoder` sets it).
    static let libraryPreroll: Int64 = 4
    /// Closer to the start than this, the frames before the target cost less than finding one.
    static let nearStart: Int64 = 16

    /// The frame number libmpg123 is told that `offset` has.
    let frame: Int64
    /// Where that frame's header starts in the file.
    let offset: Int64
    /// True when `frame` is certain (constant bitrate); false when it is the seek table's
    /// estimate, so libmpg123's count from here on is off by the estimate's error, in whole
    /// frames (`MP3EstimatedCount` cuts the end and corrects the position regardless).
    let isExact: Bool

    /// The landing for gapless sample `target` in a stream laid out as `layout`, read from
    /// `source`; nil when reading the frames from the start is right (every byte before is
    /// here, the target is near the start, or nothing tells where its frame lies).
    static func find(for target: Int64, in layout: MPEGStreamLayout, source: any ByteSource) throws -> MP3Landing? {
        let frame = target / Int64(layout.samplesPerFrame) - prerollFrames
        guard frame >= nearStart else { return nil }
        switch layout.seeking {
        case .constantBitrate(let bitrate, let declared):
            let estimate = layout.constantBitrateOffset(ofFrame: frame, bitrate: bitrate)
            guard !source.holds(0..<estimate) else { return nil }
            let margin = Int64(layout.header.length) + 8
            let window = try source.readBytes(at: estimate - margin, count: Int(2 * margin) + 4 * layout.header.length + 8)
            guard let found = layout.frameStart(near: estimate, in: window[...], windowStart: estimate - margin, bitrate: bitrate),
                  // Padding moves a frame by a byte: any further and this is not the frame counted.
                  abs(found - estimate) <= (declared ? Int64(layout.header.length / 8) : 2) else { return nil }
            return MP3Landing(frame: frame, offset: found, isExact: true)
        case .seekTable(let table, let frames, let bytes):
            guard frame < frames else { return nil }
            let estimate = layout.tableOffset(ofSample: frame * Int64(layout.samplesPerFrame), table: table, frames: frames, bytes: bytes)
            guard !source.holds(0..<estimate) else { return nil }
            let window = try source.readBytes(at: estimate, count: 16 * 1024)
            guard let found = layout.frameStart(near: estimate, in: window[...], windowStart: estimate) else { return nil }
            // The frame found follows the estimate by some bytes: count them in average frames.
            let skipped = Int64((Double(found - estimate) * Double(frames) / Double(bytes)).rounded())
            guard skipped <= 1 else { return nil }
            return MP3Landing(frame: frame + skipped, offset: found, isExact: false)
        case .scan:
            return nil
        }
    }
}

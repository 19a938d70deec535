/// The four-byte header of an MPEG audio frame: enough to find the next frame, the Xing/Info
/// header after it, and how many samples it decodes to (the decoder and the tag reader share it).
package struct MPEGFrameHeader: SyncedFrameHeader {
    package static let headerSize = 4

    enum Version { case mpeg1, mpeg2, mpeg25 }

    let version: Version
    let layer: Int
    let sampleRate: Int
    let bitrate: Int
    let channels: Int
    let hasCRC: Bool
    package let length: Int

    private static let bitrates: [[Int]] = [
        [32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448],  // MPEG-1 layer I
        [32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384],     // MPEG-1 layer II
        [32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],      // MPEG-1 layer III
        [32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256],     // MPEG-2/2.5 layer I
        [8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],          // MPEG-2/2.5 layers II, III
    ]

    /// Parses a header; nil for anything that is not a valid, fixed-bitrate frame header.
    package init?(_ b: ArraySlice<UInt8>) {
        guard b.count >= 4 else { return nil }
        let b0 = b[b.startIndex], b1 = b[b.startIndex + 1], b2 = b[b.startIndex + 2], b3 = b[b.startIndex + 3]
        guard b0 == 0xFF, b1 & 0xE0 == 0xE0 else { return nil }
        switch (b1 >> 3) & 3 {
        case 0: version = .mpeg25
        case 2: version = .mpeg2
        case 3: version = .mpeg1
        default: return nil
        }
        switch (b1 >> 1) & 3 {
        case 1: layer = 3
        case 2: layer = 2
        case 3: layer = 1
        default: return nil
        }
        hasCRC = b1 & 1 == 0
        let bitrateIndex = Int(b2 >> 4)
        let rateIndex = Int((b2 >> 2) & 3)
        guard bitrateIndex != 0, bitrateIndex != 15, rateIndex != 3 else { return nil }
        let table = version == .mpeg1 ? layer - 1 : (layer == 1 ? 3 : 4)
        bitrate = Self.bitrates[table][bitrateIndex - 1] * 1000
        let baseRate = [44100, 48000, 32000][rateIndex]
        sampleRate = version == .mpeg1 ? baseRate : (version == .mpeg2 ? baseRate / 2 : baseRate / 4)
        channels = (b3 >> 6) == 3 ? 1 : 2
        let padding = Int((b2 >> 1) & 1)
        switch layer {
        case 1: length = (12 * bitrate / sampleRate + padding) * 4
        case 3 where version != .mpeg1: length = 72 * bitrate / sampleRate + padding
        default: length = 144 * bitrate / sampleRate + padding
        }
    }

    /// Whether `other` can be the next frame of the same stream.
    package func continues(with other: MPEGFrameHeader) -> Bool {
        version == other.version && layer == other.layer && sampleRate == other.sampleRate
    }

    /// PCM samples (per channel) one frame decodes to.
    var samplesPerFrame: Int {
        switch layer {
        case 1: 384
        case 2: 1152
        default: version == .mpeg1 ? 1152 : 576
        }
    }

    /// Offset, from the frame start, where a Xing/Info header would begin (after the side info).
    package var xingOffset: Int {
        let sideInfo = version == .mpeg1 ? (channels == 1 ? 17 : 32) : (channels == 1 ? 9 : 17)
        return 4 + (hasCRC ? 2 : 0) + sideInfo
    }
}

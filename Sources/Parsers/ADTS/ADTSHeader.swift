/// The header of an AAC frame in ADTS (ISO/IEC 14496-3, 1.A.2.2): how AAC travels without a
/// container — in internet radio (`audio/aac`, `audio/aacp`), in MPEG-TS and HLS packed-audio
/// segments. Each frame says its own length and configuration, so a stream can be joined anywhere.
package struct ADTSHeader: SyncedFrameHeader {
    package static let headerSize = 7

    /// The MPEG-4 audio object type: 1 AAC Main, 2 AAC LC, 3 SSR, 4 LTP. (HE-AAC travels as LC
    /// with SBR found in the data: implicit signalling.)
    package let objectType: Int
    package let sampleRate: Int
    package let samplingIndex: Int
    /// 1–6, or 8 for 7.1 (configuration 7); 0: the layout is in the frame's program config element.
    package let channels: Int
    package let channelConfiguration: Int
    /// The whole frame, header included.
    package let length: Int
    /// Raw data blocks in the frame: 1024 frames of (core-rate) audio each.
    package let blocks: Int
    /// Whether a CRC follows the header (9 bytes of header, not 7).
    package let hasCRC: Bool

    /// The sampling frequencies the 4-bit index names; 13 and 14 are reserved, 15 escapes (not in ADTS).
    static let sampleRates = [96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350]

    /// Parses a header; nil for anything that is not one: no sync, MPEG audio's layer bits, a
    /// reserved rate, or a length shorter than the header itself.
    package init?(_ b: ArraySlice<UInt8>) {
        guard b.count >= Self.headerSize else { return nil }
        let s = b.startIndex
        // The layer bits are 00 in ADTS, never in MPEG audio (where 00 is reserved): that tells the two apart.
        guard b[s] == 0xFF, b[s + 1] & 0xF6 == 0xF0 else { return nil }
        hasCRC = b[s + 1] & 1 == 0
        objectType = Int(b[s + 2] >> 6) + 1
        samplingIndex = Int((b[s + 2] >> 2) & 0x0F)
        guard samplingIndex < Self.sampleRates.count else { return nil }
        sampleRate = Self.sampleRates[samplingIndex]
        channelConfiguration = Int((b[s + 2] & 1) << 2 | b[s + 3] >> 6)
        channels = channelConfiguration == 7 ? 8 : channelConfiguration
        length = Int(b[s + 3] & 0x03) << 11 | Int(b[s + 4]) << 3 | Int(b[s + 5] >> 5)
        blocks = Int(b[s + 6] & 0x03) + 1
        guard length >= (hasCRC ? 9 : 7) + 1 else { return nil }
    }

    /// Whether `other` can be the next frame of the same stream: one object type, rate and layout.
    package func continues(with other: ADTSHeader) -> Bool {
        objectType == other.objectType && samplingIndex == other.samplingIndex && channelConfiguration == other.channelConfiguration
    }

    /// Frames (per channel) the frame decodes to at its core rate.
    package var samplesPerFrame: Int { 1024 * blocks }
}

/// AAC in ADTS's run of frames: how the format sniffer tells an AAC station from noise.
package typealias ADTSFrameRun = FrameRun<ADTSHeader>

import FoundationEssentials

/// One media segment of a media playlist, with the tags that apply to it gathered in: its
/// sequence number, duration, byte range, key, initialization section and discontinuity.
package struct HLSSegment: Sendable, Equatable {
    package var uri: URL
    /// Its media sequence number: the playlist's EXT-X-MEDIA-SEQUENCE plus its place.
    package var sequence: Int
    /// Seconds, from EXTINF.
    package var duration: Double
    /// EXTINF's title, after the comma.
    package var title: String?
    package var byteRange: Range<Int64>?
    /// Nil for a segment in the clear (no EXT-X-KEY before it, or METHOD=NONE).
    package var key: HLSKey?
    package var map: HLSMap?
    /// An EXT-X-DISCONTINUITY came just before it: timestamps, format or encoding may change.
    package var discontinuity: Bool

    package init(uri: URL, sequence: Int, duration: Double, title: String? = nil, byteRange: Range<Int64>? = nil,
                 key: HLSKey? = nil, map: HLSMap? = nil, discontinuity: Bool = false) {
        self.uri = uri
        self.sequence = sequence
        self.duration = duration
        self.title = title
        self.byteRange = byteRange
        self.key = key
        self.map = map
        self.discontinuity = discontinuity
    }

    /// The IV to decrypt the segment with: the key's own, or else the media sequence number as
    /// a 128-bit big-endian integer (RFC 8216 §5.2). Nil for a segment in the clear.
    package func iv() -> [UInt8]? {
        guard let key else { return nil }
        if let iv = key.iv { return iv }
        let number = UInt64(truncatingIfNeeded: sequence)
        return [UInt8](repeating: 0, count: 8) + (0..<8).reversed().map { UInt8(truncatingIfNeeded: number >> (8 * $0)) }
    }
}

/// A media playlist (RFC 8216 §4.3.3): the segments of one rendition, and what a player needs
/// to follow it (live: reload every target duration until EXT-X-ENDLIST).
package struct HLSMediaPlaylist: Sendable, Equatable {
    /// EXT-X-PLAYLIST-TYPE.
    package enum PlaylistType: Sendable, Equatable {
        /// The playlist never changes.
        case vod
        /// Segments are only ever added at the end.
        case event
    }

    /// EXT-X-TARGETDURATION: no segment is longer (rounded), and a live playlist is reloaded
    /// about this often.
    package var targetDuration: Double
    /// EXT-X-MEDIA-SEQUENCE: the first segment's sequence number.
    package var mediaSequence: Int
    package var discontinuitySequence: Int
    package var segments: [HLSSegment]
    /// EXT-X-ENDLIST: no segment will be added.
    package var ended: Bool
    package var type: PlaylistType?

    package init(targetDuration: Double, mediaSequence: Int = 0, discontinuitySequence: Int = 0, segments: [HLSSegment],
                 ended: Bool = false, type: PlaylistType? = nil) {
        self.targetDuration = targetDuration
        self.mediaSequence = mediaSequence
        self.discontinuitySequence = discontinuitySequence
        self.segments = segments
        self.ended = ended
        self.type = type
    }
}

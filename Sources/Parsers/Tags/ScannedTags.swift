import Model

/// What a library scan learns about one file from a few byte ranges: enough to list and sort it
/// without downloading or decoding it.
package struct ScannedTags: Sendable, Equatable {
    package var codec: AudioCodec
    package var tags: TrackTags
    /// Seconds: exact for Opus and for MP3 with a Xing/Info (LAME) or VBRI header, a bitrate
    /// estimate for other MP3s; nil if it could not be found.
    package var duration: Double?
    /// Its chapters, in order (read only for playing: a scan does not ask for them).
    package var chapters: [Chapter]

    package init(codec: AudioCodec, tags: TrackTags, duration: Double? = nil, chapters: [Chapter] = []) {
        self.codec = codec
        self.tags = tags
        self.duration = duration
        self.chapters = chapters
    }
}

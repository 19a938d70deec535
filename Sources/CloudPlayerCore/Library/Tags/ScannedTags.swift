/// What a library scan learns about one file from a few byte ranges: enough to list and sort it
/// without downloading or decoding it.
struct ScannedTags: Sendable, Equatable {
    var codec: AudioCodec
    var tags: TrackTags
    /// Seconds: exact for Opus and for MP3 with a Xing/Info (LAME) or VBRI header, a bitrate
    /// estimate for other MP3s; nil if it could not be found.
    var duration: Double?
}

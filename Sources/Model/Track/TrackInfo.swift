/// What the decoder learnt when it opened a track: the codec's format and length, and the tags
/// and chapters the decoder actor read (none from the codec decoders themselves).
package struct TrackInfo: Sendable, Equatable {
    package var codec: AudioCodec
    package var format: PCMFormat
    /// Exact for Opus and for MP3 with a Xing/Info/VBRI header, estimated otherwise; nil if unknown.
    package var totalFrames: Int64?
    package var tags: TrackTags
    /// The track's chapters (an audiobook's), as its tags list them; empty for most music.
    package var chapters: [Chapter]
    /// A live stream (a station): it has no length and cannot seek, and its songs change as
    /// it plays (`PCMPacket.streamTags`).
    package var isLive = false
    /// Kilobits per second of the encoded audio: the track's average over its audio data (its
    /// frames' bytes over its length, tags and pictures left out), or for a live stream the rate
    /// its first frames say; nil where neither can be told. MPD's `status` shows it.
    package var bitrate: Int?

    package init(codec: AudioCodec, format: PCMFormat, totalFrames: Int64?, bitrate: Int? = nil,
                 tags: TrackTags = TrackTags(), chapters: [Chapter] = []) {
        self.codec = codec
        self.format = format
        self.totalFrames = totalFrames
        self.bitrate = bitrate
        self.tags = tags
        self.chapters = chapters
    }

    /// The same, with `tags` and `chapters` (the decoder actor's, kept across a change of format).
    package func with(tags: TrackTags, chapters: [Chapter]) -> TrackInfo {
        var info = self
        info.tags = tags
        info.chapters = chapters
        return info
    }

    /// The average kilobits per second of `bytes` of audio lasting `seconds`, rounded; nil for
    /// no bytes or no length.
    package static func kilobitsPerSecond(bytes: Int64, seconds: Double?) -> Int? {
        guard bytes > 0, let seconds, seconds > 0, seconds.isFinite else { return nil }
        return Int((Double(bytes) * 8 / seconds / 1000).rounded())
    }

    /// Length in seconds, if known.
    package var duration: Double? {
        totalFrames.map { Double($0) / Double(format.sampleRate) }
    }

    /// The frame index of a time in seconds: `round(seconds × rate)`, never negative; a time
    /// that is not a number counts as 0, one too large for any file as the largest frame index.
    package func frame(at seconds: Double) -> Int64 {
        let frame = (seconds * Double(format.sampleRate)).rounded()
        guard frame > 0 else { return 0 }  // also NaN and -inf
        return frame >= Double(Int64.max) ? Int64.max : Int64(frame)
    }
}

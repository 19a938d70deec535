import Model

/// What HLS carries in ID3v2 tags: a packed-audio segment (raw ADTS or MP3, RFC 8216 §3.4)
/// starts with a tag whose PRIV frame gives the first sample's PTS, and the timed-metadata PES
/// packets of a transport stream are whole tags naming the song now playing.
package struct HLSID3Tag: Sendable, Equatable {
    /// The `com.apple.streaming.transportStreamTimestamp` PTS, in 90 kHz ticks (33 bits).
    package var timestamp: Int64?
    /// Title and artist from TIT2/TPE1, else from TXXX frames described TITLE/ARTIST, else from
    /// a TXXX "StreamTitle" ("Artist - Title", as in ICY); the other fields as the tag has them.
    package var tags: TrackTags
    /// The whole tag's size (header, frames, padding, footer): where a packed segment's audio starts.
    package var size: Int

    package init(timestamp: Int64? = nil, tags: TrackTags = TrackTags(), size: Int) {
        self.timestamp = timestamp
        self.tags = tags
        self.size = size
    }

    /// The tag at the start of `bytes`; nil if they do not start with an ID3v2 header. A tag
    /// cut short yields the frames that are whole.
    package static func read(_ bytes: ArraySlice<UInt8>) -> HLSID3Tag? {
        guard let size = ID3v2Parser.tagSize(bytes) else { return nil }
        guard let frames = ID3v2Parser.collect(bytes) else { return HLSID3Tag(size: size) }
        var tags = frames.tags
        let text = frames.userTexts
        let streamTitle = text["STREAMTITLE"].flatMap { ICYMetadata(streamTitle: $0).song }
        tags.title = tags.title ?? text["TITLE"] ?? streamTitle?.title
        tags.artist = tags.artist ?? text["ARTIST"] ?? streamTitle?.artist
        return HLSID3Tag(timestamp: frames.transportTimestamp, tags: tags, size: size)
    }
}

/// The bytes of a live stream (internet radio): no length, no ranges, read once from the front.
///
/// Its bytes come in parts, one per connection: a reconnect after a drop starts a new part, which
/// a decoder opens afresh (a new connection starts mid-frame, or repeats an Ogg stream's headers).
/// A part reads as a file whose end is where its connection ended; `next()` waits for the part
/// after it. Reads may block (on the decoder's thread), and `cancel()` releases them.
package protocol LiveByteSource: ByteSource {
    /// What the station says of itself (`icy-name`, `icy-genre`, …), from this part's answer.
    var station: StationInfo { get }

    /// Blocks until the next part begins (the stream reconnected) and returns it; nil when the
    /// stream ended (a file sent without a length, whole); throws the stream's error once it gave
    /// up, `LoaderError.cancelled` once cancelled.
    func next() throws -> (any LiveByteSource)?

    /// Takes the title changes (ICY `StreamTitle`) this part carried at byte offsets up to
    /// `offset`: each is heard from the audio at its offset on. Each is handed out once.
    func takeTitles(through offset: Int64) -> [StreamTitleChange]

    /// A stream whose whole timeline is known — an HLS playlist that ends (video on demand) —
    /// is as long as this, in seconds, and can start anywhere in it; nil for a station.
    var duration: Double? { get }

    /// Starts a stream of known `duration` at `seconds`, before anything of it is read: from the
    /// segment that holds that time. Returns where that segment begins (at or before `seconds`),
    /// so the decoder drops what comes before. A station starts where it is (0).
    func start(at seconds: Double) throws -> Double
}

extension LiveByteSource {
    package var duration: Double? { nil }
    package func start(at seconds: Double) throws -> Double { 0 }
}

/// A title a live stream announced in its bytes, and the byte offset (of the part's audio) where
/// the song it names begins.
package struct StreamTitleChange: Sendable, Equatable {
    package var offset: Int64
    /// The song as the station names it; empty tags for a title that is blank (between songs).
    package var tags: TrackTags

    package init(offset: Int64, tags: TrackTags) {
        self.offset = offset
        self.tags = tags
    }
}

/// What a station's answer says of it: SHOUTcast's and Icecast's `icy-*` headers.
package struct StationInfo: Sendable, Equatable {
    package var name: String?
    package var genre: String?
    package var url: String?
    /// Its nominal bit rate, kbit/s.
    package var bitRate: Int?

    package init(name: String? = nil, genre: String? = nil, url: String? = nil, bitRate: Int? = nil) {
        self.name = name
        self.genre = genre
        self.url = url
        self.bitRate = bitRate
    }

    /// As tags a track shows: the station as its title, its genre.
    package var tags: TrackTags {
        TrackTags(title: name, genre: genre)
    }
}

import Foundation

/// One HLS fixture set as an `HLSServer` serves it (`HLSFixtures.publish`): a copy of its own in
/// the served folder, so a test may delete or change files in it without touching another's.
public struct ServedHLS: Sendable {
    public let kind: HLSFixtures.Kind
    /// The playlist a client opens: the media playlist, or for `.master` the master playlist.
    public let playlistURL: URL
    /// The set's folder in the server's root (delete a file from it and the server answers 404).
    public let folder: URL
    /// The set's path on the server, "/ts-aac-1a2b3c4d": a request's path is this, "/", the name.
    public let path: String
    /// What was encoded.
    public let source: HLSToneSource
    /// The media playlist's segments, in order, as named in it ("seg0.ts"); for `.master` those of
    /// the first variant, in its folder ("low/seg0.ts").
    public let segments: [String]
    /// The media playlist's EXTINF durations, in order.
    public let durations: [Double]
    /// Its EXT-X-MEDIA-SEQUENCE: the number of the first segment (7 for `.encrypted`).
    public let mediaSequence: Int
    /// The audio as ffmpeg's HLS demuxer decodes the set's own files (`ffmpeg -i index.m3u8`,
    /// 16-bit): the encoder's priming and padding are in it, as they are in the segments (MPEG-TS
    /// and ADTS carry no edit list; fMP4's is applied). For `.master`, the first variant's.
    public let reference: PCMAudio
    /// For `.master`: the variants, lowest bandwidth first. Empty otherwise.
    public let variants: [Variant]
    /// For the encrypted kinds: the AES-128 key, served as `aes.key` beside the playlist.
    public let key: Data?
    /// For `.encryptedWithIV`: the IV the playlist states (32 hex digits). Nil otherwise; for
    /// `.encrypted` each segment's IV is its media sequence number (RFC 8216 §5.2).
    public let iv: String?
    /// For `.packedAudio`: from which segment on each artist and title are carried.
    public let titles: [HLSFixtures.Title]
    /// For `.packedAudio`: the PTS (90 kHz) of the first segment's first sample, in its PRIV frame.
    public let startPTS: Int?
    /// How long the set took to make (ffmpeg, and the reference decode), the first time it was asked for.
    public let madeIn: Duration

    /// One variant of a master playlist.
    public struct Variant: Sendable {
        /// Its folder in the set, and its `-var_stream_map` name: "low", "mid", "high".
        public let name: String
        /// The AAC bit rate it was encoded at, bits a second.
        public let bitRate: Int
        /// The master playlist's BANDWIDTH and CODECS for it.
        public let bandwidth: Int
        public let codecs: String
        public let playlistURL: URL
        /// This variant as ffmpeg decodes it.
        public let reference: PCMAudio
    }

    /// The served URL of a file of the set ("seg3.ts", "aes.key", "mid/index.m3u8").
    public func url(_ name: String) -> URL {
        playlistURL.deletingLastPathComponent().appendingPathComponent(name)
    }

    /// A file's path as a request to the server names it: "/ts-aac-1a2b3c4d/seg3.ts".
    public func requestPath(_ name: String) -> String { "\(path)/\(name)" }

    /// Deletes a file of the set: the server answers 404 for it from now on.
    public func remove(_ name: String) throws {
        try FileManager.default.removeItem(at: folder.appendingPathComponent(name))
    }
}

import Foundation

/// HLS streams for the HLS player's tests, made with ffmpeg's HLS muxer (and for packed audio,
/// which ffmpeg cannot write, Tests/RadioServers/hls_packed.py) from `HLSToneSource.vod`: 19.5 s
/// of a tone that steps up every 2 s, in segments of about 2 s. Each set is made once per test
/// process, on first use, like `Fixtures`; `publish` puts a copy of it on a server.
/// Live streams are `HLSLiveEncoder`'s.
public actor HLSFixtures {
    public enum Kind: String, CaseIterable, Sendable {
        /// VOD, MPEG-TS segments, AAC-LC 128 kbit/s: ffmpeg's HLS as it comes.
        case tsAAC = "ts-aac"
        /// VOD, MPEG-TS segments, MP3 (LAME) 128 kbit/s.
        case tsMP3 = "ts-mp3"
        /// VOD, fragmented MP4 (`#EXT-X-MAP:URI="init.mp4"`, segments `segN.m4s`), AAC-LC 128 kbit/s.
        case fmp4AAC = "fmp4-aac"
        /// `.tsAAC` encrypted with AES-128 (`aes.key`) and no IV attribute: each segment's IV is its
        /// media sequence number, and the sequence starts at 7, so a client that counts from the
        /// playlist's first entry decrypts nothing right. (ffmpeg 5.1 cannot write this: without
        /// an IV it writes `IV=0x0…0` and uses it for every segment. The segments are encrypted
        /// with openssl, one by one.)
        case encrypted = "aes"
        /// `.tsAAC` encrypted by ffmpeg (`-hls_key_info_file`) with an explicit IV in the playlist.
        case encryptedWithIV = "aes-iv"
        /// A master playlist (`master.m3u8`, BANDWIDTH and CODECS="mp4a.40.2") of three AAC variants,
        /// 48, 96 and 160 kbit/s, in folders `low`, `mid`, `high`, segments cut at the same times.
        case master = "master"
        /// Packed audio (RFC 8216 §3.4): ADTS AAC-LC 128 kbit/s segments `segN.aac` of 86 frames
        /// (1.997 s), each after an ID3v2.4 tag with the PRIV timestamp, and `titles`.
        case packedAudio = "packed"
    }

    /// Artist and title carried by packed-audio segments from `segment` on (TPE1 and TIT2).
    public struct Title: Sendable, Equatable {
        public let segment: Int
        public let artist: String
        public let title: String

        public init(segment: Int, artist: String, title: String) {
            (self.segment, self.artist, self.title) = (segment, artist, title)
        }

        /// "Artist - Title", as a station's stream title reads.
        public var streamTitle: String { "\(artist) - \(title)" }
    }

    /// The packed-audio set's titles: a new song at segment 3 and at segment 6, the last one's
    /// title not ASCII (UTF-8 in the tag).
    public static let packedTitles = [
        Title(segment: 0, artist: "Artist A", title: "Song 1"), Title(segment: 3, artist: "Artist B", title: "Song 2"),
        Title(segment: 6, artist: "Artist C", title: "Sóng 3"),
    ]

    /// The packed-audio set's first PTS: 10 s at 90 kHz, hls_packed.py's default.
    public static let packedStartPTS = 900_000

    public static let shared = HLSFixtures()

    static let packer = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("RadioServers/hls_packed.py")

    private var made: [Kind: Task<Made, any Error>] = [:]

    /// Copies set `kind` (made now if this process has not made it yet) into a folder of its own
    /// in `server`'s root, and returns where it is served.
    public func publish(_ kind: Kind, on server: HLSServer) async throws -> ServedHLS {
        let set = try await self.set(kind)
        let name = "\(kind.rawValue)-\(UUID().uuidString.prefix(8).lowercased())"
        let folder = server.root.appendingPathComponent(name)
        try FileManager.default.copyItem(at: set.folder, to: folder)
        let variants = set.variants.map {
            ServedHLS.Variant(name: $0.name, bitRate: $0.bitRate, bandwidth: $0.bandwidth, codecs: $0.codecs,
                              playlistURL: server.url("\(name)/\($0.name)/index.m3u8"), reference: $0.reference)
        }
        return ServedHLS(kind: kind, playlistURL: server.url("\(name)/\(set.playlist)"), folder: folder, path: "/\(name)",
                         source: HLSToneSource.vod, segments: set.segments, durations: set.durations,
                         mediaSequence: set.mediaSequence, reference: set.reference, variants: variants, key: set.key, iv: set.iv,
                         titles: set.titles, startPTS: set.startPTS, madeIn: set.madeIn)
    }

    /// Set `kind`, made on first use.
    func set(_ kind: Kind) async throws -> Made {
        if let task = made[kind] { return try await task.value }
        let task = Task { try await Self.make(kind) }
        made[kind] = task
        return try await task.value
    }

    /// A set as made, in a scratch folder of its own.
    struct Made: Sendable {
        var folder: URL
        /// The playlist a client opens, in `folder`.
        var playlist = "index.m3u8"
        var segments: [String] = []
        var durations: [Double] = []
        var mediaSequence = 0
        var reference = PCMAudio(sampleRate: 0, channels: 0, samples: [])
        var variants: [MadeVariant] = []
        var key: Data?
        var iv: String?
        var titles: [Title] = []
        var startPTS: Int?
        var madeIn: Duration = .zero
    }

    struct MadeVariant: Sendable {
        var name: String
        var bitRate: Int
        var bandwidth: Int
        var codecs: String
        var reference: PCMAudio
    }
}

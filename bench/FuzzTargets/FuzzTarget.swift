import Cache
import Config
import Decoding
import FeedAnswers
import Foundation
import Parsers
import S3Answers
import SubsonicAnswers
import WebDAVAnswers

/// The parsers that meet bytes from outside — files, servers, the config — each as a function
/// of arbitrary bytes, for libFuzzer (`bench/fuzz`) and for the tests that replay the corpus.
/// A target must never crash, hang or leak, whatever it is given; errors are fine.
package enum FuzzTarget: String, CaseIterable, Sendable {
    /// Format sniffing, then the MP3, Opus, FLAC or Vorbis decoder to the end, and a seek — as
    /// over the network, with only the first quarter of the bytes held, so an MP3 seek goes
    /// through its frame arithmetic or Xing table (`MP3Landing`).
    case decode
    /// The FLAC decoder alone (native or Ogg FLAC by the first bytes), to the end, and a seek.
    case decodeFLAC = "decode-flac"
    /// The Vorbis decoder alone, to the end, and a seek.
    case decodeVorbis = "decode-vorbis"
    /// The WAV/AIFF chunk walk and decoder, to the end, and a seek.
    case decodePCMFile = "decode-pcmfile"
    /// The MP4 demuxer (boxes, sample tables, edit list, sample entries) and FFmpeg's AAC and
    /// ALAC decoders behind it, to the end, and a seek.
    case decodeMP4 = "decode-mp4"
    /// The sparse cache's range record.
    case cacheRecord = "cache-record"
    /// `Content-Range` header values.
    case contentRange = "content-range"
    /// WebDAV PROPFIND answers.
    case propfind
    /// S3 answers: `ListObjectsV2` pages and error bodies.
    case s3
    /// The config file: TOML, the [cache] and [network] checks, and the values source types read.
    case config
    /// The library's tag reader (ID3v2, ID3v1, Xing/LAME, Ogg/Opus headers) over a whole file.
    case tags
    /// The tag reader from FLAC seeds: metadata blocks, pictures, padding.
    case tagsFLAC = "tags-flac"
    /// The tag reader from Ogg Vorbis seeds: identification and comment headers, the last granule.
    case tagsVorbis = "tags-vorbis"
    /// The tag reader from WAV and AIFF seeds: chunks, RIFF INFO lists, ID3 and AIFF text chunks.
    case tagsPCMFile = "tags-pcmfile"
    /// The tag reader from MP4 seeds: box headers, mvhd/mdhd/elst, the ilst items.
    case tagsMP4 = "tags-mp4"
    /// Podcast feeds (RSS, Atom).
    case feed
    /// Playlist files (M3U, M3U8, PLS) and station lists (those, XSPF and ASX, told apart from
    /// HLS, web pages and audio by `StationList`).
    case playlist
    /// A station's body with ICY metadata blocks: the first two bytes choose the interval and
    /// how the rest is cut into reads; every block's text is read as a title.
    case icy
    /// An MPEG transport stream (an HLS segment): the first byte chooses how the rest is cut
    /// into reads; every ID3 payload is read as HLS timed metadata, the input as a packed-audio
    /// segment's leading tag.
    case mpegts
    /// HLS playlists, master or media, with the variant choice and every segment's IV.
    case hls
    /// Subsonic answers, JSON or XML.
    case subsonic
    /// Our XML reader alone, every event read, under the most permissive rules (feeds', with
    /// processing instructions): what PROPFIND, S3, Subsonic and feed answers are read with.
    case xml

    /// Decoded frames beyond this are not worth the fuzzer's time.
    static let frameBudget = 1 << 20

    /// Runs the target once (async callers, such as the tests: no thread is blocked).
    package func run(_ bytes: [UInt8]) async {
        if isTags {
            await Self.readTags(bytes)
        } else {
            runSynchronously(bytes)
        }
    }

    /// Runs the target once from a caller that owns its thread and may block it (libFuzzer's
    /// callback, the corpus runner) — never from the cooperative pool.
    package func runBlocking(_ bytes: [UInt8]) {
        guard isTags else { return runSynchronously(bytes) }
        let done = DispatchSemaphore(value: 0)
        Task {
            await Self.readTags(bytes)
            done.signal()
        }
        done.wait()
    }

    private var isTags: Bool { [.tags, .tagsFLAC, .tagsVorbis, .tagsPCMFile, .tagsMP4].contains(self) }

    /// Reads to the frame budget, then seeks to the middle and reads once more.
    private static func exercise(_ decoder: (any AudioDecoder)?) {
        guard let decoder else { return }
        var frames = 0
        while frames < frameBudget, let samples = try? decoder.read(maxFrames: 8192), !samples.isEmpty {
            frames += samples.count
        }
        if let total = decoder.info.totalFrames, total > 1 {
            try? decoder.seek(toFrame: total / 2)
            _ = try? decoder.read(maxFrames: 8192)
        }
    }

    private static func readTags(_ bytes: [UInt8]) async {
        _ = try? await TagReader.read(length: Int64(bytes.count)) { range in
            Array(bytes[Int(range.lowerBound)..<Int(min(range.upperBound, Int64(bytes.count)))])
        }
    }

    private func runSynchronously(_ bytes: [UInt8]) {
        switch self {
        case .decode:
            Self.exercise(try? DecoderActor.open(MemoryByteSource(bytes, holdingOnly: Int64(bytes.count / 4))))
        case .decodeFLAC:
            Self.exercise(try? FLACDecoder(source: MemoryByteSource(bytes), ogg: bytes.starts(with: "OggS".utf8)))
        case .decodeVorbis:
            Self.exercise(try? VorbisDecoder(source: MemoryByteSource(bytes)))
        case .decodePCMFile:
            Self.exercise(try? PCMFileDecoder(source: MemoryByteSource(bytes)))
        case .decodeMP4:
            Self.exercise(try? MP4Decoder(source: MemoryByteSource(bytes)))
        case .cacheRecord:
            _ = SparseCacheEntry.parse(String(decoding: bytes, as: UTF8.self))
        case .contentRange:
            _ = ContentRange(String(decoding: bytes, as: UTF8.self))
        case .propfind:
            _ = try? PropfindParser.parse(Data(bytes))
        case .s3:
            _ = try? S3AnswerParser.page(Data(bytes))
            _ = S3AnswerParser.failure(Data(bytes))
        case .config:
            // The file's shape, then every kind of value a source type reads from its table.
            guard let file = try? ConfigFile.parse(String(decoding: bytes, as: UTF8.self), relativeTo: URL(fileURLWithPath: "/nonexistent"))
            else { return }
            for (_, section) in file.sources {
                _ = try? section.httpURL("url")
                _ = try? section.path("path")
                _ = try? section.secret("password")
                _ = try? section.headers("headers")
                _ = try? section.required("username", "fuzzing")
                _ = try? section.allow(["url", "path", "password", "headers", "username"])
            }
        case .tags, .tagsFLAC, .tagsVorbis, .tagsPCMFile, .tagsMP4:
            break  // async: see run(_:) and runBlocking(_:)
        case .feed:
            _ = try? FeedParser.parse(bytes, base: URL(string: "https://example.org/feed.xml")!)
        case .playlist:
            let base = URL(string: "https://example.org/music/list.m3u")!
            _ = try? PlaylistFileParser.parse(bytes, name: "list.m3u", base: base)
            _ = try? PlaylistFileParser.parse(bytes, name: "list.pls", base: URL(fileURLWithPath: "/music/list.pls"))
            _ = StationList.looksLikeList(contentType: nil, firstBytes: bytes)
            _ = try? StationList.read(bytes, contentType: nil, base: base)
            _ = try? XSPFParser.parse(bytes, base: base)
            _ = try? ASXParser.parse(bytes, base: base)
        case .icy:
            guard bytes.count > 2, var demuxer = ICYDemuxer(interval: Int(bytes[0]) * 64 + 1) else { return }
            let read = Int(bytes[1]) + 1
            var audio: [UInt8] = []
            var start = 2
            while start < bytes.count {
                let end = min(start + read, bytes.count)
                for block in bytes[start..<end].withUnsafeBytes({ demuxer.feed($0, audio: &audio) }) { _ = block.metadata.song }
                start = end
            }
            _ = ICYMetadata(bytes).song
        case .mpegts:
            guard let first = bytes.first else { return }
            let read = [1, 7, 188, 1000, 4096][Int(first) % 5]
            var demuxer = TSDemuxer()
            var payloads: [TSPayload] = []
            var start = 1
            while start < bytes.count {
                let end = min(start + read, bytes.count)
                payloads += demuxer.feed(bytes[start..<end])
                start = end
            }
            payloads += demuxer.finish()
            for payload in payloads where payload.kind == .id3Metadata { _ = HLSID3Tag.read(payload.bytes[...]) }
            _ = HLSID3Tag.read(bytes[...])
        case .hls:
            switch try? HLSPlaylist.parse(bytes, base: URL(string: "https://example.org/live/index.m3u8")!) {
            case .master(let master)?:
                _ = master.audioChoice(maxBandwidth: nil)
                _ = master.audioChoice(maxBandwidth: 128_000)
            case .media(let media)?:
                for segment in media.segments { _ = segment.iv() }
            case nil:
                break
            }
        case .subsonic:
            _ = try? SubsonicAnswerParser.parse(bytes)
        case .xml:
            var rules = XMLRules.forFeeds(kind: "fuzzing")
            rules.instructions = true
            guard var reader = try? XMLReader(bytes, rules: rules) else { return }
            while (try? reader.next()) != nil {}  // nil at the end and at an error alike
        }
    }
}

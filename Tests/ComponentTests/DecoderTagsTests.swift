import Base
import ComponentTestSupport
import Decoding
import Foundation
import FuzzTargets
import Loader
import Model
import Parsers
import Testing
import TestSupport

/// A track shows the same tags playing (MPRIS, `play`) as listed by a library scan: the decoder
/// reads them with the library's `TagReader`, and a failure to read them never stops playback.
@Suite struct DecoderTagsTests {
    /// What `.trackStart` tells of the track in `source`, and how many samples came in the packet
    /// after it.
    static func start(_ source: any ByteSource) async throws -> (info: TrackInfo, samples: Int) {
        let packets = BoundedQueue<PCMPacket>(capacity: 2)
        let decoder = DecoderActor()
        let entry = QueueEntry(id: 1, location: TrackLocation(url: URL(fileURLWithPath: "/music/track")))
        let decoding = Task {
            defer { packets.finish() }
            try await decoder.decode(entry, from: source, startingAt: 0, into: packets)
        }
        let first = await packets.next(), second = await packets.next()
        decoding.cancel()
        packets.finish()
        if case .failure(let error) = await decoding.result { throw error }
        guard case .trackStart(_, let info, _)? = first, case .samples(let samples)? = second else {
            throw ParserFixtureError(message: "the decoder sent \(String(describing: first)), \(String(describing: second))")
        }
        return (info, samples.count)
    }

    /// The tags a library scan reads from the same bytes.
    static func scanned(_ bytes: [UInt8]) async throws -> TrackTags {
        try await VirtualFile(bytes).read().tags
    }

    static let goodFixtures: [Fixtures.File] = [.vbrMP3, .cbrMP3, .secondMP3, .monoMP3, .opus, .secondOpus, .monoOpus,
                                                 .opusNamedMP3, .artMP3, .artOpus, .longMP3, .longOpus, .flac, .flac24,
                                                 .id3FLAC, .bigPictureFLAC, .oggFLAC, .vorbis, .chainedVorbis]

    @Test("the fixtures' tags while playing are TagReader's", arguments: goodFixtures)
    func fixtures(_ file: Fixtures.File) async throws {
        let url = try await Fixtures.shared.url(file)
        let bytes = try [UInt8](Data(contentsOf: url))
        let (info, _) = try await Self.start(try FileByteSource(path: url.path))
        #expect(info.tags == (try await Self.scanned(bytes)))
    }

    @Test("the tagged fixtures' tags while playing, field by field")
    func knownFixtureTags() async throws {
        func playing(_ file: Fixtures.File) async throws -> TrackTags {
            try await Self.start(try FileByteSource(path: try await Fixtures.shared.url(file).path)).info.tags
        }
        let cover = Artwork(data: [UInt8](try Data(contentsOf: try await Fixtures.shared.url(.coverArt))), mimeType: "image/png")
        #expect(try await playing(.vbrMP3).text == TrackTags(title: "Vbr Title", artist: "Some Artist", album: "Some Album", trackNumber: 3))
        #expect(try await playing(.opus) == TrackTags(title: "Opus Title", artist: "Opus Artist", album: "Opus Album", trackNumber: 7))
        #expect(try await playing(.artMP3).artwork == cover)
        #expect(try await playing(.artOpus).artwork == cover)
        // A cover of any size while playing: here a 2 MB PICTURE block (a scan steps over it).
        let big = try #require(try await playing(.bigPictureFLAC).artwork)
        #expect(big.data.count == 2_000_008 && big.data.starts(with: [0x89, 0x50, 0x4E, 0x47]) && big.fileExtension == "png")
    }

    /// Files whose tags libmpg123 and opusfile read otherwise than the library did: ID3v1 filling
    /// in a track number and genre, v2.4 years and disc numbers, numeric genres, Opus dates.
    @Test(.enabled(if: ParserFixtures.have("sox", "lame", "opusenc", "eyeD3", "id3v2")))
    func tagsTheDecodersOnceReadOtherwise() async throws {
        let fixtures = try ParserFixtures()
        try fixtures.tone("a.wav", seconds: 1)
        // ID3v2 with a title only, ID3v1 with the rest.
        try fixtures.run("lame", ["-S", "--id3v1-only", "--tt", "V1 Title", "--ta", "V1 Artist", "--tn", "9", "--tg", "Jazz",
                                  "--ty", "1999", "a.wav", "v1.mp3"])
        let title = Array("V2 Title".utf8)
        let frame = Array("TIT2".utf8) + [0, 0, 0, UInt8(title.count + 1), 0, 0, 0] + title
        try fixtures.write("v2v1.mp3", Array("ID3".utf8) + [3, 0, 0, 0, 0, 0, UInt8(frame.count)] + frame + (try fixtures.bytes("v1.mp3")))
        // ID3v2.4 from eyeD3: album artist, disc, date; a back cover before the front one.
        try fixtures.run("lame", ["-S", "--id3v2-only", "--tt", "x", "a.wav", "v24.mp3"])
        try fixtures.write("back.jpg", ParserFixtures.jpeg(size: 300))
        try fixtures.write("front.png", ParserFixtures.png(size: 900))
        try fixtures.run("eyeD3", ["-Q", "--to-v2.4", "-t", "Tïtle", "-a", "Ärtist", "-b", "Various", "-n", "3", "-N", "12",
                                   "-d", "2", "-D", "3", "--recording-date", "2019-04-05", "-G", "Jazz",
                                   "--add-image", "back.jpg:BACK_COVER", "--add-image", "front.png:FRONT_COVER", "v24.mp3"])
        // A numeric genre, as the id3v2 tool writes it.
        try fixtures.run("lame", ["-S", "a.wav", "genre.mp3"])
        try fixtures.run("id3v2", ["-2", "-g", "17", "-t", "Numbered", "-T", "4/9", "genre.mp3"])
        // Opus with a date, a disc number and a spaced album-artist key.
        try fixtures.run("opusenc", ["--quiet", "--title", "T", "--date", "2020-05-01", "--comment", "TRACKNUMBER= 5",
                                     "--comment", "DISCNUMBER=2/2", "--comment", "ALBUM ARTIST=Various",
                                     "--picture", "front.png", "a.wav", "a.opus"])
        for name in ["v2v1.mp3", "v24.mp3", "genre.mp3", "a.opus"] {
            let (info, _) = try await Self.start(try FileByteSource(path: fixtures.path(name)))
            let expected = try await Self.scanned(try fixtures.bytes(name))
            #expect(info.tags == expected, "\(name)")
        }
        let v2v1 = try await Self.start(try FileByteSource(path: fixtures.path("v2v1.mp3"))).info.tags
        #expect(v2v1.text == TrackTags(title: "V2 Title", artist: "V1 Artist", trackNumber: 9, genre: "Jazz", year: 1999))
    }

    @Test("a track whose tags cannot be read plays without them")
    func unreadableTagsPlay() async throws {
        let url = try await Fixtures.shared.url(.vbrMP3)
        let bytes = try [UInt8](Data(contentsOf: url))
        // Junk before the first frame: the decoder finds the frames, the tag reader gives up.
        let junk = [UInt8](repeating: 0x20, count: 700)
        let tagEnd = try #require(ID3v2Parser.tagSize(bytes[...]))
        let (junkInfo, junkSamples) = try await Self.start(MemoryByteSource(junk + Array(bytes[tagEnd...])))
        await #expect(throws: ParseError.self) { try await Self.scanned(junk + Array(bytes[tagEnd...])) }
        #expect(junkInfo.tags == TrackTags())
        #expect(junkSamples > 0)
        // A source of unknown length (the tag reader needs the end).
        let (unsized, unsizedSamples) = try await Self.start(UnsizedSource(MemoryByteSource(bytes)))
        #expect(unsized.tags == TrackTags())
        #expect(unsizedSamples > 0)
    }
}

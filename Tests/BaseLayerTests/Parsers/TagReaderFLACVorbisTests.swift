import ComponentTestSupport
import Foundation
import Model
import Parsers
import Testing

/// FLAC files made by flac/metaflac and Vorbis files made by oggenc: comments and pictures as
/// given, durations to the sample as the reference decoders decode them, and few bytes fetched
/// whatever sits between the tags and the audio.
@Suite(.enabled(if: ParserFixtures.have("sox", "soxi", "flac", "metaflac", "oggenc", "oggdec")))
struct TagReaderFLACVorbisTests {
    private func frames(_ scanned: ScannedTags, rate: Int) -> Int {
        Int(((scanned.duration ?? -1) * Double(rate)).rounded())
    }

    @Test func flacCommentsPictureAndExactDuration() async throws {
        let fixtures = try ParserFixtures()
        let cover = ParserFixtures.png()
        try fixtures.write("cover.png", cover)
        try fixtures.tone("a.wav", seconds: 2.345)
        _ = try fixtures.run("flac", ["--silent", "-T", "TITLE=Tïtle ✓", "-T", "ARTIST=Artist", "-T", "ALBUM=Album",
                                      "-T", "DATE=2020-05-01", "-T", "GENRE=Ambient", "-T", "TRACKNUMBER=3/12",
                                      "-T", "DISCNUMBER=2", "-T", "ALBUMARTIST=Various", "--picture", "cover.png",
                                      "-T", "COMPOSER=Clara Voss", "-T", "COMPOSER=Second Composer", "-T", "MOVEMENTNAME=Allegro",
                                      "-T", "MUSICBRAINZ_TRACKID=0f3a1c2e-4444-4a4a-9b9b-000000000001",
                                      "-o", "a.flac", "a.wav"])
        let scanned = try await VirtualFile(try fixtures.bytes("a.flac")).read()
        #expect(scanned.codec == .flac)
        #expect(scanned.tags == TrackTags(title: "Tïtle ✓", artist: "Artist", album: "Album", albumArtist: "Various",
                                          trackNumber: 3, genre: "Ambient", artwork: Artwork(data: cover, mimeType: "image/png"),
                                          year: 2020, discNumber: 2,
                                          more: [.date: "2020-05-01", .composer: "Clara Voss", .movement: "Allegro",
                                                 .musicBrainzTrackID: "0f3a1c2e-4444-4a4a-9b9b-000000000001"]),
                "a tag given twice keeps its first value")
        #expect(frames(scanned, rate: 44100) == (try fixtures.samples("a.wav")))
    }

    /// The 70 KiB budget of a scan holds with a 2 MB cover and 1 MB of padding before the audio:
    /// both are stepped over by their size. (Playing, the cover is read: DecoderTagsTests.)
    @Test func flacWithTwoMegabytePictureFetchesAtMost70KiB() async throws {
        let fixtures = try ParserFixtures()
        try fixtures.write("big.png", ParserFixtures.png(size: 2_000_000))
        try fixtures.tone("a.wav", seconds: 30, rate: 96000)
        _ = try fixtures.run("flac", ["--silent", "-T", "TITLE=Behind the picture", "-T", "ARTIST=Artist", "-o", "a.flac", "a.wav"])
        _ = try fixtures.run("metaflac", ["--import-picture-from=3|image/png|Cover|4x4x24|big.png",
                                          "--add-padding=1048576", "a.flac"])
        let file = VirtualFile(try fixtures.bytes("a.flac"))
        let scanned = try await file.read(pictures: false)
        #expect(scanned.tags.title == "Behind the picture")
        #expect(scanned.tags.artwork == nil)
        #expect(file.fetchedBytes <= 70 * 1024, "fetched \(file.fetchedBytes) in \(file.requests)")
        #expect(frames(scanned, rate: 96000) == (try fixtures.samples("a.wav")))
    }

    /// A picture as a comment (METADATA_BLOCK_PICTURE, base64 of a FLAC picture block), as
    /// taggers write it into Vorbis files and some into FLAC files.
    @Test(arguments: ["flac", "ogg"])
    func pictureInsideTheComments(_ kind: String) async throws {
        let fixtures = try ParserFixtures()
        let cover = ParserFixtures.png()
        try fixtures.tone("a.wav", seconds: 1)
        var block: [UInt8] = []
        func u32(_ value: Int) { block += [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) } }
        u32(3); u32(9); block += Array("image/png".utf8); u32(0); u32(4); u32(4); u32(24); u32(0); u32(cover.count)
        block += cover
        let comment = "METADATA_BLOCK_PICTURE=" + Data(block).base64EncodedString()
        if kind == "flac" {
            _ = try fixtures.run("flac", ["--silent", "-T", "TITLE=Pictured", "-o", "a.flac", "a.wav"])
            _ = try fixtures.run("metaflac", ["--set-tag=\(comment)", "a.flac"])
        } else {
            _ = try fixtures.run("oggenc", ["-Q", "-t", "Pictured", "-c", comment, "-o", "a.ogg", "a.wav"])
        }
        let scanned = try await VirtualFile(try fixtures.bytes("a.\(kind)")).read()
        #expect(scanned.tags.title == "Pictured")
        #expect(scanned.tags.artwork == Artwork(data: cover, mimeType: "image/png"))
    }

    /// Some taggers put an ID3v2 tag before the stream; libFLAC skips it, and so does the scan,
    /// whether the tag fits in the first fetch or not (40 KB of padding here).
    @Test(arguments: [100, 40_000])
    func flacAfterAnID3Tag(padding: Int) async throws {
        let fixtures = try ParserFixtures()
        try fixtures.tone("a.wav", seconds: 1.5)
        _ = try fixtures.run("flac", ["--silent", "-T", "TITLE=Behind ID3", "-o", "a.flac", "a.wav"])
        let size = [21, 14, 7, 0].map { UInt8((padding >> $0) & 0x7F) }  // syncsafe
        let tag = Array("ID3".utf8) + [3, 0, 0] + size + [UInt8](repeating: 0, count: padding)
        let scanned = try await VirtualFile(tag + (try fixtures.bytes("a.flac"))).read()
        #expect(scanned.codec == .flac)
        #expect(scanned.tags.title == "Behind ID3")
        #expect(frames(scanned, rate: 44100) == (try fixtures.samples("a.wav")))
    }

    @Test func oggFLACCommentsAndExactDuration() async throws {
        let fixtures = try ParserFixtures()
        try fixtures.tone("a.wav", seconds: 2.5, rate: 48000)
        _ = try fixtures.run("flac", ["--silent", "--ogg", "-T", "TITLE=In Ogg", "-T", "ARTIST=Artist", "-o", "a.oga", "a.wav"])
        let scanned = try await VirtualFile(try fixtures.bytes("a.oga")).read()
        #expect(scanned.codec == .flac)
        #expect(scanned.tags == TrackTags(title: "In Ogg", artist: "Artist"))
        #expect(frames(scanned, rate: 48000) == (try fixtures.samples("a.wav")))
    }

    @Test func vorbisCommentsAndExactDuration() async throws {
        let fixtures = try ParserFixtures()
        try fixtures.tone("a.wav", seconds: 3.21, rate: 48000)
        _ = try fixtures.run("oggenc", ["-Q", "-t", "Vorbis Title", "-a", "Artist", "-l", "Album", "-N", "7", "-d", "1999",
                                        "-o", "a.ogg", "a.wav"])
        let file = VirtualFile(try fixtures.bytes("a.ogg"))
        let scanned = try await file.read()
        #expect(scanned.codec == .vorbis)
        #expect(scanned.tags == TrackTags(title: "Vorbis Title", artist: "Artist", album: "Album", trackNumber: 7, year: 1999,
                                          more: [.date: "1999"]))
        _ = try fixtures.run("oggdec", ["--quiet", "-o", "ref.wav", "a.ogg"])
        #expect(frames(scanned, rate: 48000) == (try fixtures.samples("ref.wav")))
        #expect(file.fetchedBytes <= 70 * 1024)
    }
}

import ComponentTestSupport
import Foundation
import Model
import Parsers
import Testing
import TestSupport

/// Chapters as podcast and audiobook tools write them, read by `TagReader` as a track starts to
/// play: ID3v2 `CHAP`/`CTOC` frames in an MP3 (mutagen, which Picard and beets use), and
/// `CHAPTERnnn`/`CHAPTERnnnNAME` comments in Opus, Vorbis and FLAC. A scan asks for none.
@Suite struct TagReaderChapterTests {
    private func read(_ tagged: URL, chapters: Bool = true) async throws -> ScannedTags {
        let bytes = [UInt8](try Data(contentsOf: tagged))
        if chapters { return try await VirtualFile(bytes).read() }
        return try await TagReader.read(length: Int64(bytes.count), pictures: false, chapters: false) { range in
            Array(bytes[Int(range.lowerBound)..<Int(range.upperBound)])
        }
    }

    @Test("ID3v2.3 and 2.4 CHAP frames: starts in ms, TIT2 titles and APIC pictures, in start order; only what a top-level CTOC lists; none for a scan",
          arguments: [3, 4])
    func id3Chapters(_ version: Int) async throws {
        let picture = try Data(contentsOf: try await Fixtures.shared.url(.coverArt))
        let chapters = [Tagger.ID3Chapter("ch2", start: 20_500, end: 40_000, title: "Second — «deux»", picture: picture),
                        Tagger.ID3Chapter("ch1", start: 0, end: 20_500, title: "Intro"),
                        Tagger.ID3Chapter("ch3", start: 40_000, end: 60_000, title: nil),
                        Tagger.ID3Chapter("extra", start: 30_000, end: 31_000, title: "Not in the table")]
        let file = try await Fixtures.shared.url(.longMP3)
        let tagged = try await Tagger.copy(file, to: try Fixtures.shared.scratchDirectory(), named: "chapters.mp3",
                                           chapters: chapters, listed: ["ch1", "ch2", "ch3"], version: version)
        let read = try await read(tagged)
        #expect(read.chapters == [Chapter(start: 0, title: "Intro"),
                                  Chapter(start: 20.5, title: "Second — «deux»", art: .embedded(Artwork(data: [UInt8](picture), mimeType: "image/png"))),
                                  Chapter(start: 40, title: "")])
        #expect(try await self.read(tagged, chapters: false).chapters.isEmpty)

        // Without a table of contents every chapter counts.
        let untabled = try await Tagger.copy(file, to: try Fixtures.shared.scratchDirectory(), named: "untabled.mp3",
                                             chapters: chapters, listed: nil, version: version)
        #expect(try await self.read(untabled).chapters.map(\.start) == [0, 20.5, 30, 40])
    }

    @Test("CHAPTERnnn comments: HH:MM:SS.sss starts and NAME titles, numbers in any order; malformed ones left out",
          arguments: [(Fixtures.File.opus, "chapters.opus"), (.vorbis, "chapters.ogg"), (.flac, "chapters.flac")])
    func commentChapters(_ file: Fixtures.File, _ name: String) async throws {
        let fields = ["CHAPTER002": "00:00:01.500", "CHAPTER002NAME": "Verse", "CHAPTER001": "00:00:00.000", "CHAPTER001NAME": "Intro",
                      "CHAPTER003": "0:02.25", "CHAPTER004": "soon", "CHAPTER004NAME": "Broken", "CHAPTER005NAME": "No start"]
        let tagged = try await Tagger.copy(try await Fixtures.shared.url(file), to: try Fixtures.shared.scratchDirectory(),
                                           named: name, fields: fields)
        let read = try await read(tagged)
        #expect(read.chapters == [Chapter(start: 0, title: "Intro"), Chapter(start: 1.5, title: "Verse"), Chapter(start: 2.25, title: "")])
        #expect(read.tags.title != nil, "the other tags are read as before")
    }

    @Test("a Podcasting 2.0 chapters file: startTime, title and img, a toc false chapter left out; what is not one, one clear error")
    func podcastChaptersJSON() throws {
        let text = #"{"version": "1.2.0", "chapters": [{"startTime": 94.5, "title": "Donation Segment"}, {"startTime": 0, "title": "Intro", "toc": true},"#
            + #" {"startTime": 10, "title": "Silent", "toc": false}, {"startTime": 20, "img": "a.jpg"}]}"#
        #expect(try PodcastChaptersJSON.parse(Array(text.utf8))
                == [Chapter(start: 94.5, title: "Donation Segment"), Chapter(start: 0, title: "Intro"), Chapter(start: 20, title: "")])
        // `img` against the file's own URL; only http(s) pictures are fetched.
        let based = try PodcastChaptersJSON.parse(Array(text.utf8), base: URL(string: "https://example.com/show/ep1/chapters.json"))
        #expect(based.map(\.art) == [nil, nil, .link("https://example.com/show/ep1/a.jpg")])
        #expect(throws: ParseError.self) { try PodcastChaptersJSON.parse(Array("<html>Not found</html>".utf8)) }
        #expect(throws: ParseError.self) { try PodcastChaptersJSON.parse(Array(#"{"chapters": [{"title": "no start"}]}"#.utf8)) }
    }
}

import Foundation
import Model
import Parsers
import Testing
import TestSupport

/// M4B chapters as ffmpeg writes them (`AudiobookFixture`) — a QuickTime chapter track and
/// Nero's `chpl`, each also alone — read through ranged reads for playing; a scan reads none.
@Suite struct MP4ChapterTests {
    static let chapters = [Chapter(start: 0, title: "Opening"), Chapter(start: 3, title: "Chapter Two — ünïcode"),
                           Chapter(start: 7.5, title: "The End")]

    static func book(_ lists: AudiobookFixture.Lists) async throws -> URL {
        try await AudiobookFixture.make(chapters: chapters.map { ($0.start, $0.title) }, length: 12, lists: lists)
    }

    static func read(_ file: URL, chapters: Bool = true) async throws -> (ScannedTags, fetched: Int) {
        let bytes = try [UInt8](Data(contentsOf: file))
        var fetched = 0
        let scanned = try await TagReader.read(length: Int64(bytes.count), pictures: chapters, chapters: chapters) { range in
            fetched += range.count
            return Array(bytes[Int(range.lowerBound)..<Int(range.upperBound)])
        }
        return (scanned, fetched)
    }

    @Test("an M4B's chapters are read from its chapter track, from Nero's chpl, or from either when it has both",
          arguments: AudiobookFixture.Lists.allCases)
    func chaptersRead(_ kind: AudiobookFixture.Lists) async throws {
        let (scanned, _) = try await Self.read(try await Self.book(kind))
        #expect(scanned.chapters == Self.chapters)
        #expect(scanned.tags.title == "The Book")
    }

    @Test("chapter pictures (a QuickTime chapter video track, JPEG and PNG stills): each chapter has the one shown at its start")
    func pictures() async throws {
        let directory = try Fixtures.shared.scratchDirectory()
        let jpeg = directory.appendingPathComponent("still.jpg")
        try await ChildProcess.check("ffmpeg", ["-nostdin", "-loglevel", "error", "-f", "lavfi", "-i", "color=red:s=16x16",
                                                "-frames:v", "1", jpeg.path])
        let png = try await Fixtures.shared.url(.coverArt)
        let book = try await AudiobookFixture.make(chapters: Self.chapters.map { ($0.start, $0.title) }, length: 12, lists: .quickTimeOnly,
                                                   pictures: [jpeg, png, jpeg])
        let (scanned, _) = try await Self.read(book)
        let stills = [try [UInt8](Data(contentsOf: jpeg)), try [UInt8](Data(contentsOf: png)), try [UInt8](Data(contentsOf: jpeg))]
        #expect(scanned.chapters.map(\.title) == Self.chapters.map(\.title), "the picture track is not read as titles")
        #expect(scanned.chapters.map(\.start) == Self.chapters.map(\.start))
        #expect(scanned.chapters.map(\.art) == zip(stills, ["image/jpeg", "image/png", "image/jpeg"]).map {
            ChapterArt.embedded(Artwork(data: $0, mimeType: $1))
        })
        // Without chapters asked for (a scan), no picture is fetched either.
        #expect(try await Self.read(book, chapters: false).0.chapters.isEmpty)
    }

    @Test("the picture on screen at a time: the last sample to start by then, if it lasts that long")
    func pictureShown() {
        let samples = [MP4SampleTable.Sample(offset: 100, size: 10, time: 0, duration: 3000),
                       MP4SampleTable.Sample(offset: 200, size: 10, time: 5000, duration: 1000)]
        #expect(samples.sample(showing: 0)?.offset == 100)
        #expect(samples.sample(showing: 2999)?.offset == 100)
        #expect(samples.sample(showing: 3000) == nil, "a gap between pictures")
        #expect(samples.sample(showing: 5000)?.offset == 200)
        #expect(samples.sample(showing: 7000) == nil)
        #expect([MP4SampleTable.Sample]().sample(showing: 1) == nil)
    }

    @Test("a scan reads no chapters, and only the boxes of the tags")
    func scanSkipsChapters() async throws {
        let (scanned, fetched) = try await Self.read(try await Self.book(.both), chapters: false)
        #expect(scanned.chapters.isEmpty)
        #expect(scanned.tags.title == "The Book" && fetched <= 70 * 1024)
    }

    @Test("chapters out of order, at one place, or past the end are put in order and cut to what can be steered by")
    func orderedChapters() {
        let found = [Chapter(start: 5, title: "b"), Chapter(start: 0, title: "a\u{7}"), Chapter(start: 5, title: "dup"),
                     Chapter(start: 99, title: "past"), Chapter(start: -1, title: "before"), Chapter(start: .nan, title: "nan")]
        let ordered = [Chapter].ordered(found, duration: 12)
        #expect(ordered == [Chapter(start: 0, title: "a"), Chapter(start: 5, title: "b")])
        #expect(ordered.index(at: 0) == 0 && ordered.index(at: 4.99) == 0 && ordered.index(at: 5 - 1e-9) == 1 && ordered.index(at: 11) == 1)
        #expect([Chapter(start: 1, title: "late")].index(at: 0.5) == nil)
    }
}

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

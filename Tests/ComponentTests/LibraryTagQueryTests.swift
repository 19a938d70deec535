import Foundation
import Library
import SQLite
import Testing
import TestSupport

/// MPD's `find`, `search`, `list`, `count` and `stats` over the library (`TagQuery`), on 2,000
/// generated tracks (see `synthetic_library.py`: 100 a artist, 10 an album; tracks 999 and 1999
/// are "Zebra Crossing" by "The Quiet Ones") and a few made by hand.
@Suite struct LibraryTagQueryTests {
    static var extra: [[String: any SQLiteConvertible]] { [
        ["url": "file:///synthetic/music/Other/1.mp3", "source": "synth", "folder": "file:///synthetic/music/Other/",
         "artist": "Sigur Rós", "title": "Hoppípolla", "duration": 268.5],
        ["url": "file:///synthetic/music/Other/2.mp3", "source": "synth", "folder": "file:///synthetic/music/Other/"],
        ["url": "file:///synthetic/music/Other/3.mp3", "source": "synth", "folder": "file:///synthetic/music/Other/",
         "artist": "Artist 0003", "title": "Song gone", "gone": true],
        // A Kelvin sign (U+212A) for a K: PCRE2's caseless `back` finds it.
        ["url": "file:///synthetic/music/Other/4.mp3", "source": "synth", "folder": "file:///synthetic/music/Other/",
         "artist": "Artist 0004", "title": "Bac\u{212A} Home"],
    ] }

    static func make() async throws -> LibraryActor {
        try await SyntheticLibrary.make(count: 2000, extra: extra).library
    }

    static func all(_ library: LibraryActor, _ filter: TagFilter?, sort: TrackTag? = nil) async throws -> [LibraryTrack] {
        try await library.tracks(matching: TagQuery(filter: filter, sort: sort), from: nil, limit: 10_000).tracks
    }

    static func tag(_ tag: TrackTag, _ match: TagMatch, _ value: String, fold: Bool = false) -> TagFilter {
        .tag(tag, match, value, foldCase: fold)
    }

    @Test("find compares exactly, search folds case, != counts tracks without the tag, gone tracks never")
    func exactAndFolded() async throws {
        let library = try await Self.make()
        let three = try await Self.all(library, Self.tag(.artist, .equal, "Artist 0003"))
        #expect(three.count == 100 && three.allSatisfy { $0.artist == "Artist 0003" && !$0.gone })
        #expect(three.map { [$0.folder, $0.url] } == three.map { [$0.folder, $0.url] }.sorted { $0.lexicographicallyPrecedes($1) })
        #expect(try await Self.all(library, Self.tag(.artist, .equal, "artist 0003")).isEmpty)
        #expect(try await Self.all(library, Self.tag(.artist, .equal, "artist 0003", fold: true)).count == 100)
        #expect(try await Self.all(library, Self.tag(.artist, .notEqual, "Artist 0003")).count == 2003 - 100)
        #expect(try await Self.all(library, Self.tag(.date, .equal, "1965")).count == 100)
        #expect(try await Self.all(library, Self.tag(.track, .equal, "3")).count == 200)
        #expect(try await Self.all(library, Self.tag(.any, .equal, "Zebra Crossing")).count == 2)
    }

    @Test("substrings: from the trigram index (case and accents of any letter folded), short ones by scanning, exact ones checked")
    func substrings() async throws {
        let library = try await Self.make()
        #expect(try await Self.all(library, Self.tag(.any, .contains, "quiet ones", fold: true)).map(\.title) == ["Zebra Crossing", "Zebra Crossing"])
        #expect(try await Self.all(library, Self.tag(.artist, .contains, "QUIET", fold: true)).count == 2)
        #expect(try await Self.all(library, Self.tag(.title, .contains, "QUIET", fold: true)).isEmpty, "only in the tag asked")
        #expect(try await Self.all(library, Self.tag(.artist, .contains, "QUIET")).isEmpty, "find's contains keeps case")
        #expect(try await Self.all(library, Self.tag(.artist, .contains, "Quiet")).count == 2)
        #expect(try await Self.all(library, Self.tag(.artist, .contains, "qU", fold: true)).count == 2, "two letters: no trigram")
        #expect(try await Self.all(library, Self.tag(.any, .contains, "RÓS", fold: true)).map(\.title) == ["Hoppípolla"])
        #expect(try await Self.all(library, Self.tag(.title, .contains, "PÍP", fold: true)).count == 1)
        #expect(try await Self.all(library, Self.tag(.title, .contains, "100%", fold: true)).isEmpty, "LIKE's wildcards are letters")
        #expect(try await Self.all(library, Self.tag(.title, .startsWith, "Song 0001")).count == 100)
        #expect(try await Self.all(library, Self.tag(.title, .startsWith, "song 0001", fold: true)).count == 100)
        #expect(try await Self.all(library, Self.tag(.title, .startsWith, "ong 0001", fold: true)).isEmpty)
        #expect(try await Self.all(library, Self.tag(.date, .contains, "196")).count == 1000)
    }

    @Test("an expression that is a plain word is tried only on the tracks the trigram index finds: the same tracks as trying every value")
    func plainWordExpressions() async throws {
        #expect(TagQuerySQL.plainWord(in: "zebra cr", foldCase: true) == "zebra cr")
        #expect(TagQuerySQL.plainWord(in: "^The Quiet", foldCase: false) == "The Quiet")
        #expect(TagQuerySQL.plainWord(in: "ing$", foldCase: true) == "ing")
        #expect(TagQuerySQL.plainWord(in: "Rós", foldCase: false) == "Rós")
        for (pattern, fold) in [("z.bra", true), ("ab", true), ("back", true), ("ones$", true), ("Rós", true), ("a|b c", false), (#"\w+ing"#, false)] {
            #expect(TagQuerySQL.plainWord(in: pattern, foldCase: fold) == nil, "\(pattern)")
        }
        let library = try await Self.make()
        let cases: [(TrackTag, String, Bool, Int)] = [
            (.title, "zebra cr", true, 2), (.title, "ZEBRA", true, 2), (.title, "Zebra", false, 2), (.title, "zebra", false, 0),
            (.artist, "^The Quiet", false, 2), (.artist, "^the quiet", false, 0), (.artist, "ones$", true, 2), (.any, "quiet on", true, 2),
            (.artist, "Rós", false, 1), (.artist, "rós", true, 1), (.title, "back", true, 1), (.title, "Song 0001", true, 100),
        ]
        for (tag, pattern, fold, count) in cases {
            let word = try await Self.all(library, Self.tag(tag, .matches, pattern, fold: fold))
            // A group makes it no plain word: every value of the tag is tried.
            let scanned = try await Self.all(library, Self.tag(tag, .matches, "(?:\(pattern))", fold: fold))
            #expect(word.count == count && word.map(\.url) == scanned.map(\.url), "\(pattern): \(word.map(\.title))")
            let others = try await Self.all(library, Self.tag(tag, .notMatches, pattern, fold: fold))
            let othersScanned = try await Self.all(library, Self.tag(tag, .notMatches, "(?:\(pattern))", fold: fold))
            #expect(others.map(\.url) == othersScanned.map(\.url), "!~ \(pattern)")
        }
    }

    @Test("AND, NOT and base combine; sort and window slice, paged by offset")
    func combined() async throws {
        let library = try await Self.make()
        let jazz = TagFilter.and([Self.tag(.genre, .equal, "Jazz"), .not(Self.tag(.artist, .equal, "Artist 0001"))])
        #expect(Set(try await Self.all(library, jazz).compactMap(\.artist)) == ["Artist 0013"])
        let under = TagFilter.and([.base(SyntheticLibrary.folder(artist: 5)), Self.tag(.title, .contains, "0055")])
        #expect(try await Self.all(library, under).compactMap(\.title) == (550...559).map { "Song 000\($0)" })
        #expect(try await Self.all(library, .not(.base(SyntheticLibrary.root))).isEmpty)

        var query = TagQuery(filter: Self.tag(.title, .startsWith, "S", fold: false), sort: .title, descending: true, window: 1..<4)
        let first = try await library.tracks(matching: query, from: nil, limit: 2)
        #expect(first.tracks.compactMap(\.title) == ["Song 001997", "Song 001996"] && first.next != nil)
        let second = try await library.tracks(matching: query, from: first.next, limit: 2)
        #expect(second.tracks.compactMap(\.title) == ["Song 001995"] && second.next == nil)
        query.descending = false
        #expect(try await library.tracks(matching: query, from: nil, limit: 10).tracks.compactMap(\.title) == ["Song 000001", "Song 000002", "Song 000003"])

        // Read page by page (the matches found and sorted once), as read whole.
        let matching = TagQuery(filter: Self.tag(.title, .contains, "001"))
        var paged: [LibraryTrack] = []
        var cursor: TrackCursor?
        repeat {
            let page = try await library.tracks(matching: matching, from: cursor, limit: 7)
            paged += page.tracks
            cursor = page.next
        } while cursor != nil
        let whole = try await library.tracks(matching: matching, from: nil, limit: 10_000)
        #expect(whole.tracks.count > 7 && whole.next == nil && paged.map(\.url) == whole.tracks.map(\.url))
    }

    @Test("list TAG with groups, count with a group, stats")
    func listsAndCounts() async throws {
        let library = try await Self.make()
        let genres = try await library.list(.genre, filter: nil)
        // The tracks without a genre are the empty one, first, as MPD 0.23 lists them.
        #expect(genres.count == 13 && genres.first == [""] && genres == genres.sorted { ($0[0] ?? "") < ($1[0] ?? "") }, "\(genres)")
        let rock = try await library.list(.album, filter: Self.tag(.genre, .equal, "Rock"), groups: [.albumArtist])
        #expect(rock.count == 20 && rock.first == ["Artist 0000", "Album 00 of Artist 0000"] && rock.last == ["Artist 0012", "Album 09 of Artist 0012"])
        #expect(try await library.list(.date, filter: Self.tag(.artist, .equal, "The Quiet Ones")) == [["1969"], ["1979"]])

        let quiet = try await library.count(Self.tag(.artist, .equal, "The Quiet Ones"))
        #expect(quiet == [TagCount(group: nil, songs: 2, playtime: 211 + 243)])
        let perGenre = try await library.count(nil, group: .genre)
        #expect(perGenre.first == TagCount(group: nil, songs: 3, playtime: 268.5), "the tracks without a genre first")
        #expect(perGenre.map(\.songs).reduce(0, +) == 2003 && perGenre.count == 13)

        let stats = try await library.stats()
        #expect(stats.songs == 2003 && stats.artists == 22 && stats.albums == 200)
        #expect(stats.updated != nil && abs(stats.playtime - (perGenre.map(\.playtime).reduce(0, +))) < 0.001)
    }
}

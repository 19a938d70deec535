import Library
import MPD
import Testing

/// MPD's filter expressions and the old `TAG VALUE` pairs, read into `TagFilter`s; bad syntax is
/// one clear error (MPD's ACK), never a crash.
@Suite struct MPDFilterTests {
    /// Paths under `music/` are in the library, at `file:///m/`.
    struct Paths: SongPathMapping {
        func location(ofPath path: String) -> String? {
            path.hasPrefix("music/") ? "file:///m/" + path.dropFirst(6) : nil
        }

        func folderLocation(ofPath path: String) -> String? {
            path == "music" ? "file:///m/" : path.hasPrefix("music/") ? "file:///m/" + path.dropFirst(6) + "/" : nil
        }
    }

    static func parse(_ text: String, search: Bool = false) throws -> TagFilter {
        try FilterParser.parse(text, foldCase: search, paths: Paths())
    }

    @Test("expressions: comparisons, quotes and escapes, NOT, AND, base and file")
    func expressions() throws {
        #expect(try Self.parse(#"(artist == "The \"Band\"")"#) == .tag(.artist, .equal, #"The "Band""#, foldCase: false))
        #expect(try Self.parse(#"(Artist == 'it\'s \\ ok')"#) == .tag(.artist, .equal, #"it's \ ok"#, foldCase: false))
        #expect(try Self.parse("(AlbumArtist != 'x')", search: true) == .tag(.albumArtist, .notEqual, "x", foldCase: true))
        #expect(try Self.parse("(any contains 'love')") == .tag(.any, .contains, "love", foldCase: false))
        #expect(try Self.parse("( title  starts_with  'A' )") == .tag(.title, .startsWith, "A", foldCase: false))
        #expect(try Self.parse("(!(genre == 'Pop'))") == .not(.tag(.genre, .equal, "Pop", foldCase: false)))
        #expect(try Self.parse(#"(title =~ '^The \\w+$')"#) == .tag(.title, .matches, #"^The \w+$"#, foldCase: false))
        #expect(try Self.parse("(Artist !~ 'a|b')", search: true) == .tag(.artist, .notMatches, "a|b", foldCase: true))
        #expect(try Self.parse("((artist == 'a') AND (album == 'b') AND (date == '1999'))")
                == .and([.tag(.artist, .equal, "a", foldCase: false), .tag(.album, .equal, "b", foldCase: false),
                         .tag(.date, .equal, "1999", foldCase: false)]))
        #expect(try Self.parse("(base 'music/Artist A')") == .base("file:///m/Artist A/"))
        #expect(try Self.parse("(base '')") == .and([]))
        #expect(try Self.parse("(file == 'music/a/b.mp3')", search: true) == .tag(.file, .equal, "file:///m/a/b.mp3", foldCase: false))
        #expect(try Self.parse("(file == 'http://radio.example/x')") == .tag(.file, .equal, "http://radio.example/x", foldCase: false))
    }

    @Test("bad expressions are refused with MPD's reason", arguments: [
        ("", "'(' expected"), ("artist == 'x'", "'(' expected"), ("(artist == 'x'", "')' expected"),
        ("(artist == x)", "Quoted string expected"), ("(artist == 'x)", "Closing quote not found"),
        ("(nosuchtag == 'x')", "Unknown filter type: nosuchtag"), ("(artist ~= 'x')", "Operator expected"),
        ("(artist like 'x')", "Unknown filter operator: like"), ("(file =~ 'x.*')", "Regular expressions do not compare file here: use contains or starts_with"),
        ("((artist == 'a') OR (album == 'b'))", "'AND' expected"), ("(artist == 'x') junk", "Unparsed garbage after expression"),
        ("(base 'elsewhere/x')", "No such directory"),
        ("(modified-since '2020')", "Unsupported filter: modified-since"),
        (String(repeating: "(!", count: 100) + "(artist == 'x')" + String(repeating: ")", count: 100), "Filter expression nested too deeply"),
    ])
    func refused(_ text: String, _ reason: String) {
        #expect(throws: FilterError(reason)) { try Self.parse(text) }
    }

    @Test("a regular expression that does not compile is refused when read, saying why")
    func badRegex() throws {
        for pattern in ["a(", "[z-a]", "*x"] {
            do {
                _ = try Self.parse("(artist =~ '\(pattern)')")
                Issue.record("\(pattern) was taken")
            } catch {
                let message = (error as? FilterError)?.message ?? "\(error)"
                #expect(message.hasPrefix("Invalid regular expression: "), "\(pattern): \(message)")
            }
        }
    }

    @Test("argument lists: old pairs (find exact, search substrings folded), several filters, sort, window, group, position")
    func argumentLists() throws {
        let find = try QueryArguments.parse(["artist", "A", "album", "B"], search: false, paths: Paths())
        #expect(find.query.filter == .and([.tag(.artist, .equal, "A", foldCase: false), .tag(.album, .equal, "B", foldCase: false)]))
        let search = try QueryArguments.parse(["any", "lo", "sort", "-Title", "window", "5:10"], search: true, paths: Paths())
        #expect(search.query == TagQuery(filter: .tag(.any, .contains, "lo", foldCase: true), sort: .title, descending: true, window: 5..<10))
        let open = try QueryArguments.parse(["(artist == 'x')", "window", "3:", "position", "+0"], search: false, paths: Paths())
        #expect(open.query.window == 3..<Int.max && open.position == "+0")
        #expect(try QueryArguments.parse(["group", "artist"], search: false, paths: Paths()).group == .artist)
        #expect(try QueryArguments.parse(["base", "music"], search: false, paths: Paths()).query.filter == .base("file:///m/"))
        #expect(throws: FilterError("Missing argument after artist")) { try QueryArguments.parse(["artist"], search: false, paths: Paths()) }
        #expect(throws: FilterError("Invalid range")) { try QueryArguments.parse(["window", "9:3"], search: false, paths: Paths()) }
        #expect(throws: FilterError("Unknown sort tag: nope")) { try QueryArguments.parse(["sort", "nope"], search: false, paths: Paths()) }

        let list = try ListArguments.parse(["Album", "(genre == 'Rock')", "group", "albumartist", "group", "date"], paths: Paths())
        #expect(list == ListArguments(tag: .album, filter: .tag(.genre, .equal, "Rock", foldCase: false), groups: [.date, .albumArtist]), "the last group outermost, as MPD nests them")
        #expect(try ListArguments.parse(["album", "Some Artist"], paths: Paths()).filter == .tag(.artist, .equal, "Some Artist", foldCase: false))
        #expect(try ListArguments.parse(["genre"], paths: Paths()) == ListArguments(tag: .genre))
        #expect(throws: FilterError("Unknown tag type: colour")) { try ListArguments.parse(["colour"], paths: Paths()) }
    }
}

import Foundation
import Parsers
import Testing
import TestSupport

/// M3U/M3U8 and PLS files as players write them, and as they break.
struct PlaylistFileParserTests {
    let remote = URL(string: "https://music.example.com/lists/My%20Lists/road.m3u")!
    let local = URL(fileURLWithPath: "/home/u/Music/lists/road.m3u")

    private func parse(_ text: String, name: String = "road.m3u", base: URL? = nil) throws -> [PlaylistItem] {
        try PlaylistFileParser.parse(Array(text.utf8), name: name, base: base ?? remote)
    }

    @Test func extendedM3U() throws {
        let text = "\u{FEFF}#EXTM3U\r\n#EXTINF:123,Artist - Song, with comma\r\n01 First Song.mp3\r\n\r\n# a comment\r\n"
            + "#EXTINF:-1 tvg-name=\"a,b\" group-title=\"x\",Radio\r\nhttps://radio.example.com/stream?x=1&y=%20\r\n"
            + "../other/Ünïcode 100% #1?.opus\r\nftp://example.com/a.mp3\r\nrtsp://x/y\r\n  sub/dir/track.mp3  \r\n"
        let items = try parse(text)
        #expect(items == [
            PlaylistItem(url: URL(string: "https://music.example.com/lists/My%20Lists/01%20First%20Song.mp3")!,
                         title: "Artist - Song, with comma", duration: 123),
            PlaylistItem(url: URL(string: "https://radio.example.com/stream?x=1&y=%20")!, title: "Radio", duration: nil),
            PlaylistItem(url: URL(string: "https://music.example.com/lists/other/%C3%9Cn%C3%AFcode%20100%25%20%231%3F.opus")!,
                         title: nil, duration: nil),
            PlaylistItem(url: URL(string: "https://music.example.com/lists/My%20Lists/sub/dir/track.mp3")!, title: nil, duration: nil),
        ])
    }

    @Test func fileURLsAndAbsolutePathsOnlyForLocalPlaylists() throws {
        let text = "/srv/music/a b.mp3\nfile:///srv/music/c.mp3\nrel.mp3\nC:\\Music\\d.mp3\n..\\win\\e.mp3\n//host/share/f.mp3\n"
        #expect(try parse(text).map(\.url.absoluteString) == [
            "https://music.example.com/lists/My%20Lists/rel.mp3",
            "https://music.example.com/lists/win/e.mp3",
        ])
        #expect(try parse(text, base: local).map(\.url.absoluteString) == [
            "file:///srv/music/a%20b.mp3", "file:///srv/music/c.mp3", "file:///home/u/Music/lists/rel.mp3",
            "file:///home/u/Music/win/e.mp3",
        ])
    }

    @Test func latin1M3UAndUTF8M3U8() throws {
        let latin1: [UInt8] = Array("#EXTINF:5,Caf".utf8) + [0xE9] + Array("\nb".utf8) + [0xE9] + Array(".mp3\n".utf8)
        let items = try PlaylistFileParser.parse(latin1, name: "x.m3u", base: remote)
        #expect(items.first?.title == "Café")
        #expect(items.first?.url.lastPathComponent == "bé.mp3")
        let utf8 = try parse("#EXTM3U\n#EXTINF:5.5,日本\n日本.mp3\n", name: "x.m3u8")
        #expect(utf8 == [PlaylistItem(url: URL(string: "https://music.example.com/lists/My%20Lists/%E6%97%A5%E6%9C%AC.mp3")!,
                                      title: "日本", duration: 5.5)])
    }

    @Test func pls() throws {
        let text = """
        [playlist]
        Title2=Second
        File2=two.mp3
        NumberOfEntries=3
        File1=http://stream.example.com:8000/live
        Title1=Live Radio
        Length1=-1
        Length2=245
        File3=mailto:nobody@example.com
        File10 = ten.ogg
        Version=2
        """
        let items = try parse(text, name: "radio.pls")
        #expect(items == [
            PlaylistItem(url: URL(string: "http://stream.example.com:8000/live")!, title: "Live Radio", duration: nil),
            PlaylistItem(url: URL(string: "https://music.example.com/lists/My%20Lists/two.mp3")!, title: "Second", duration: 245),
            PlaylistItem(url: URL(string: "https://music.example.com/lists/My%20Lists/ten.ogg")!, title: nil, duration: nil),
        ])
        // Sniffed by content whatever the name says.
        #expect(try parse(text, name: "download").count == 3)
    }

    @Test func malformedInput() throws {
        #expect(throws: ParseError.self) { try parse("just words", name: "notes.txt") }
        #expect(throws: ParseError.self) { try parse("garbage\nno equals", name: "x.pls") }
        #expect(try parse("", name: "empty.m3u").isEmpty)
        #expect(try parse("[playlist]\nNumberOfEntries=0\n", name: "x.pls").isEmpty)
        #expect(try parse("#EXTM3U\n#EXTINF:abc,Title\nx.mp3\nFile99999999999999=a\n", name: "x.m3u").map(\.duration) == [nil, nil])
        #expect(try parse("[playlist]\nFile99999999999999=a.mp3\nFile=b.mp3\nFileX=c.mp3\n", name: "x.pls").isEmpty)
    }

    @Test func entriesAreCapped() throws {
        let text = String(repeating: "a.mp3\n", count: PlaylistFileParser.maxEntries + 10)
        #expect(try parse(text).count == PlaylistFileParser.maxEntries)
    }

    @Test func mutationsNeverCrash() {
        var generator = MutationGenerator(seed: 0x91A7)
        let seeds = [("#EXTM3U\n#EXTINF:12,T\na b.mp3\nhttp://x/y\n", "a.m3u"), ("[playlist]\nFile1=a.mp3\nTitle1=A\nLength1=3\n", "a.pls")]
        for index in 0..<3000 {
            let (text, name) = seeds[index % 2]
            _ = try? PlaylistFileParser.parse(generator.mutate(Array(text.utf8)), name: name, base: remote)
        }
    }
}

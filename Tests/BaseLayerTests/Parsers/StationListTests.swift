import Foundation
import Parsers
import Testing
import TestSupport

/// What a station URL answers, told apart as the radio needs: a station list of each format
/// (by content, Content-Type or name, as servers label them every which way), an HLS playlist,
/// a web page, or audio — from the first bytes (`looksLikeList`) and from the whole document
/// (`read`).
struct StationListTests {
    let base = URL(string: "http://radio.example.com/listen")!

    private func read(_ text: String, type: String? = nil, name: String? = nil) throws -> StationList.Content {
        try StationList.read(Array(text.utf8), contentType: type, name: name, base: base)
    }

    private func look(_ text: String, type: String? = nil, name: String? = nil) -> StationList.FirstLook {
        StationList.looksLikeList(contentType: type, name: name, firstBytes: Array(text.utf8))
    }

    private func urls(_ content: StationList.Content) -> [String] {
        guard case .stations(_, let items) = content else { return [] }
        return items.map(\.url.absoluteString)
    }

    static let xspf = """
        <?xml version="1.0" encoding="UTF-8"?>
        <playlist version="1" xmlns="http://xspf.org/ns/0/"><trackList><track><location>http://s.example.com/a</location>\
        </track></trackList></playlist>
        """
    static let asx = "<ASX version=\"3.0\"><Entry><Ref href=\"http://s.example.com/a\"/></Entry></ASX>"
    static let pls = "[playlist]\nNumberOfEntries=1\nFile1=http://s.example.com/a\nTitle1=A\nLength1=-1\nVersion=2\n"
    static let m3u = "#EXTM3U\n#EXTINF:-1,Station A\nhttp://s.example.com/a\n"
    static let hlsMedia = """
        #EXTM3U
        #EXT-X-VERSION:3
        #EXT-X-TARGETDURATION:6
        #EXT-X-MEDIA-SEQUENCE:2680
        #EXTINF:6.000,
        https://hls.example.com/live/segment2680.ts
        #EXTINF:6.000,
        segment2681.ts
        """
    static let hlsMaster = """
        #EXTM3U
        #EXT-X-STREAM-INF:BANDWIDTH=128000,CODECS="mp4a.40.2"
        low/audio.m3u8
        #EXT-X-STREAM-INF:BANDWIDTH=320000,CODECS="mp4a.40.2"
        high/audio.m3u8
        """
    static let page = "<!DOCTYPE html>\n<html lang=\"en\"><head><title>Example Radio</title></head><body>Listen live!</body></html>"
    /// The first bytes of an MP3 stream: an ID3v2 header, then a frame header.
    static let mp3: [UInt8] = [0x49, 0x44, 0x33, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xFF, 0xFB, 0x90, 0x64]
        + Array(repeating: 0x55, count: 400)
    /// The first bytes of an ASF (Windows Media) file: its header object's GUID.
    static let asf: [UInt8] = [0x30, 0x26, 0xB2, 0x75, 0x8E, 0x66, 0xCF, 0x11, 0xA6, 0xD9, 0x00, 0xAA, 0x00, 0x62, 0xCE, 0x6C]
        + Array(repeating: 0, count: 64)

    @Test("each format by its content alone, whatever type the server gives")
    func byContent() throws {
        for (text, format) in [(Self.xspf, StationList.Format.xspf), (Self.asx, .asx), (Self.pls, .pls), (Self.m3u, .m3u),
                               ("http://s.example.com/a\n", .m3u), ("# stations\n\nhttp://s.example.com/a\n", .m3u)] {
            for type in [nil, "application/octet-stream", "text/plain", "text/html; charset=utf-8", "audio/mpeg", "audio/x-scpls"] {
                let content = try read(text, type: type)
                guard case .stations(format, let items) = content else {
                    Issue.record("\(format) as \(type ?? "no type") read as \(content)")
                    continue
                }
                #expect(items.map(\.url) == [URL(string: "http://s.example.com/a")!])
                #expect(look(text, type: type) == .list)
            }
        }
    }

    @Test("text that only its Content-Type or name makes a list")
    func byTypeAndName() throws {
        for type in ["audio/x-mpegurl", "Audio/MPEGURL; charset=UTF-8", "application/x-mpegURL", "application/vnd.apple.mpegurl"] {
            #expect(try urls(read("stream.mp3\n", type: type)) == ["http://radio.example.com/stream.mp3"], "\(type)")
            #expect(look("stream.mp3\n", type: type) == .list)
        }
        for type in ["audio/x-scpls", "application/pls+xml"] {
            #expect(try urls(read("File1=s.mp3\n", type: type)) == ["http://radio.example.com/s.mp3"], "\(type)")
        }
        #expect(try urls(read("stream.mp3\n", type: "text/plain", name: "list.M3U")) == ["http://radio.example.com/stream.mp3"])
        #expect(try urls(read("File1=s.mp3\n", type: nil, name: "radio.pls")) == ["http://radio.example.com/s.mp3"])
        #expect(look("stream.mp3\n", type: "application/octet-stream", name: "stations.m3u8") == .list)
        // XML the type or name calls a list but whose root is another's: the parser says so.
        #expect(throws: ParseError.unsupported("an XML document that is not an XSPF playlist (its root is <rss>)")) {
            try read("<rss version=\"2.0\"/>", type: "application/xspf+xml")
        }
        #expect(throws: ParseError.unsupported("an XML document that is not an ASX playlist (its root is <smil>)")) {
            try read("<smil/>", type: nil, name: "x.wax")
        }
        // Neither content, type nor name says list.
        #expect(try read("stream.mp3\n", type: "text/plain") == .notAList)
        #expect(try read("<rss version=\"2.0\"/>", type: "text/xml") == .notAList)
        #expect(look("stream.mp3\n", type: "text/plain") == .media)
    }

    @Test("HLS playlists are not station lists, though they are M3U")
    func hls() throws {
        #expect(try read(Self.hlsMedia, type: "application/vnd.apple.mpegurl") == .hls)
        #expect(try read(Self.hlsMaster, type: nil, name: "master.m3u8") == .hls)
        #expect(try read("\u{FEFF}#EXT-X-MEDIA-SEQUENCE:1\n#EXTINF:6,\na.aac\n", type: "audio/mpegurl") == .hls)
        #expect(look(Self.hlsMedia) == .list)
        // A tag far down the document still tells.
        let late = "#EXTM3U\n" + String(repeating: "# comment line of a generated playlist\n", count: 200) + "#EXT-X-TARGETDURATION:10\n"
        #expect(try read(late) == .hls)
        // An extended M3U of stations (the .m3u8 of radio sites): names, no HLS tags at a line's start.
        let stations = "#EXTM3U\r\n#EXTINF:-1 tvg-logo=\"a.png\",Radio #EXT-X-TARGETDURATION\r\nhttp://s.example.com/a\r\n"
            + "#EXTINF:-1,Zweites Radio\r\nhttp://s.example.com/b\r\n"
        guard case .stations(.m3u, let items) = try read(stations, type: "application/vnd.apple.mpegurl", name: "radio.m3u8") else {
            Issue.record("an extended M3U of stations read as HLS")
            return
        }
        #expect(items.map(\.title) == ["Radio #EXT-X-TARGETDURATION", "Zweites Radio"])
    }

    @Test("a web page is neither a list nor audio, by its content or its type")
    func webPages() throws {
        for text in [Self.page, "\u{FEFF}\n  <!-- generated -->\n<html><body>x</body></html>", "<!doctype HTML><p>x",
                     "<head><meta charset=utf-8></head>"] {
            #expect(try read(text, type: nil) == .webPage, "\(text)")
            #expect(look(text, type: "audio/mpeg") == .webPage, "\(text)")
        }
        #expect(try read("Station is offline. Try later.", type: "text/html; charset=iso-8859-1") == .webPage)
        #expect(look("Station is offline.", type: "text/html") == .webPage)
        #expect(look("", type: "TEXT/HTML") == .webPage)
        // A list sent as text/html (a script that forgot its type) is still a list.
        #expect(try urls(read(Self.pls, type: "text/html")) == ["http://s.example.com/a"])
    }

    @Test("audio is not a list, whatever the type says (video/x-ms-asf is ASX's type and ASF's)")
    func audio() throws {
        for (bytes, type) in [(Self.mp3, "audio/mpeg"), (Self.mp3, nil), (Self.mp3, "audio/x-mpegurl"), (Self.asf, "video/x-ms-asf"),
                              (Array("OggS".utf8) + [0, 2] + Array(repeating: 0, count: 30), "application/ogg"), (Self.mp3, "text/html")] {
            #expect(StationList.looksLikeList(contentType: type, firstBytes: bytes) == .media)
            #expect(try StationList.read(bytes, contentType: type, base: base) == .notAList)
        }
        #expect(try read(Self.asx, type: "video/x-ms-asf") == .stations(.asx, [PlaylistItem(url: URL(string: "http://s.example.com/a")!)]))
        #expect(look("", type: nil) == .media)
        #expect(look("", type: "audio/x-scpls") == .list)
    }

    @Test("the first look needs only the first bytes, and looks at no more than lookBytes")
    func firstBytes() {
        #expect(look("#EXTM3U") == .list)
        #expect(look("[playl") == .media)
        #expect(look("[PlayList]\r\nFile1=") == .list)
        #expect(look("<?xml version=\"1.0\"?>\n<!-- a long comment that the first read cuts") == .list)
        #expect(look("<?xml version=\"1.0\"?><!DOCTYPE html><html>") == .webPage)
        #expect(look("\u{FEFF}<asx version=\"3.0\">") == .list)
        let utf16 = utf16Bytes("[playlist]\r\nFile1=http://a/\r\n")
        #expect(StationList.looksLikeList(contentType: nil, firstBytes: utf16) == .list)
        let lateHeader = String(repeating: " ", count: StationList.lookBytes) + "#EXTM3U\n"
        #expect(look(lateHeader) == .media)
    }

    @Test("Notepad's UTF-16 and a byte order mark in M3U and PLS, Latin-1 in M3U")
    func encodings() throws {
        let pls = "[playlist]\r\nFile1=http://s.example.com/caf\u{E9}\r\nTitle1=Caf\u{E9}\r\n"
        let utf16 = utf16Bytes(pls)
        #expect(try StationList.read(utf16, contentType: nil, base: base)
            == .stations(.pls, [PlaylistItem(url: URL(string: "http://s.example.com/caf%C3%A9")!, title: "Café")]))
        let m3u = [0xEF, 0xBB, 0xBF] + Array("#EXTM3U\n#EXTINF:-1,Caf\u{E9}\nhttp://s.example.com/a\n".utf8)
        #expect(try StationList.read(m3u, contentType: nil, base: base)
            == .stations(.m3u, [PlaylistItem(url: URL(string: "http://s.example.com/a")!, title: "Café")]))
        let latin1 = Array("#EXTM3U\n#EXTINF:-1,Caf".utf8) + [0xE9] + Array("\nhttp://s.example.com/a\n".utf8)
        #expect(try StationList.read(latin1, contentType: "audio/x-mpegurl", base: base)
            == .stations(.m3u, [PlaylistItem(url: URL(string: "http://s.example.com/a")!, title: "Café")]))
    }

    @Test("every format keeps the same rules: no local file from a server's list, only http(s)")
    func samePolicyEverywhere() throws {
        let lists = [
            "#EXTM3U\nfile:///etc/passwd\n/etc/shadow\nrtsp://a.example/s\nhttp://ok.example/s\n",
            "[playlist]\nFile1=file:///etc/passwd\nFile2=/etc/shadow\nFile3=rtsp://a.example/s\nFile4=http://ok.example/s\n",
            "<playlist><trackList><track><location>file:///etc/passwd</location></track><track><location>rtsp://a.example/s</location>"
                + "</track><track><location>http://ok.example/s</location></track></trackList></playlist>",
            "<asx><entry><ref href=\"file:///etc/passwd\"/></entry><entry><ref href=\"rtsp://a.example/s\"/></entry>"
                + "<entry><ref href=\"http://ok.example/s\"/></entry></asx>",
        ]
        for list in lists {
            #expect(try urls(read(list)) == ["http://ok.example/s"], "\(list)")
            let local = try StationList.read(Array(list.utf8), contentType: nil, base: URL(fileURLWithPath: "/home/u/stations"))
            #expect(urls(local).first == "file:///etc/passwd", "\(list)")
        }
    }

    @Test("a document over maxBytes is refused before it is read; a broken one is one ParseError")
    func bounds() throws {
        let huge = Array("#EXTM3U\n".utf8) + Array(repeating: UInt8(ascii: "a"), count: StationList.maxBytes)
        #expect(throws: ParseError.unsupported("a station list larger than 4 MiB")) {
            try StationList.read(huge, contentType: "audio/x-mpegurl", base: base)
        }
        #expect(throws: ParseError.self) { try read("garbage\nno equals\n", name: "radio.pls") }
        #expect(throws: ParseError.self) { try read("<playlist><trackList>") }
        #expect(throws: ParseError.self) { try read("<asx><entry>", type: "video/x-ms-asf") }
        #expect(throws: ParseError.self) { try read("not xml", type: "application/xspf+xml") }
        #expect(try read("", type: "audio/x-mpegurl") == .stations(.m3u, []))
    }

    @Test func mutationsNeverCrash() {
        var generator = MutationGenerator(seed: 0x57A7)
        let seeds = [Self.xspf, Self.asx, Self.pls, Self.m3u, Self.hlsMedia, Self.page].map { Array($0.utf8) }
        let types: [String?] = [nil, "audio/x-mpegurl", "application/xspf+xml", "video/x-ms-asf", "text/html"]
        for index in 0..<3000 {
            let bytes = generator.mutate(seeds[index % seeds.count])
            let type = types[index % types.count]
            _ = StationList.looksLikeList(contentType: type, firstBytes: bytes)
            _ = try? StationList.read(bytes, contentType: type, base: base)
        }
    }
}

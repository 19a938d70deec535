import Foundation
import Parsers
import Testing
import TestSupport

/// XSPF playlists as radio sites and players write them (xspf.org's version 1), and as they
/// break: alternatives, relative locations under `xml:base`, encodings, and documents that are
/// not XSPF or not XML.
struct XSPFParserTests {
    let remote = URL(string: "https://radio.example.com/lists/stations.xspf")!
    let local = URL(fileURLWithPath: "/home/u/Music/stations.xspf")

    private func parse(_ text: String, base: URL? = nil) throws -> [PlaylistItem] {
        try XSPFParser.parse(Array(text.utf8), base: base ?? remote)
    }

    private func url(_ text: String) -> URL { URL(string: text)! }

    static let stations = """
    <?xml version="1.0" encoding="UTF-8"?>
    <?xml-stylesheet type="text/xsl" href="xspf.xsl"?>
    <playlist version="1" xmlns="http://xspf.org/ns/0/" xmlns:ext="http://example.com/ext/">
      <title>Example Radio stations</title>
      <creator>Example Radio</creator>
      <location>https://radio.example.com/lists/stations.xspf</location>
      <trackList>
        <track>
          <location>
            http://stream1.example.com:8000/jazz.mp3
          </location>
          <location>mms://wm.example.com/jazz</location>
          <location>https://stream2.example.com/jazz.mp3</location>
          <location>http://stream1.example.com:8000/jazz.mp3</location>
          <title>Jazz &amp; Blues</title>
          <creator>Example Radio</creator>
          <annotation>Around the clock</annotation>
          <image>https://radio.example.com/jazz.png</image>
          <meta rel="http://example.com/bitrate">128</meta>
          <extension application="http://example.com/ext/">
            <location>http://not.a.track.example.com/</location>
            <ext:mirror>http://mirror.example.com/jazz.mp3</ext:mirror>
          </extension>
        </track>
        <track>
          <location>streams/Folk%20FM.ogg</location>
          <title><![CDATA[Folk <FM>]]></title>
          <duration>245000</duration>
        </track>
        <track>
          <identifier>urn:example:no-location</identifier>
          <title>Nothing to play</title>
        </track>
        <track>
          <location>/live/news.aac</location>
          <location>ftp://files.example.com/news.aac</location>
          <duration>-5</duration>
        </track>
      </trackList>
    </playlist>
    """

    @Test("tracks with their alternatives in order, titles, creators and durations; extensions passed over")
    func stations() throws {
        #expect(try parse(Self.stations) == [
            PlaylistItem(url: url("http://stream1.example.com:8000/jazz.mp3"), alternatives: [url("https://stream2.example.com/jazz.mp3")],
                         title: "Jazz & Blues", creator: "Example Radio"),
            PlaylistItem(url: url("https://radio.example.com/lists/streams/Folk%20FM.ogg"), title: "Folk <FM>", duration: 245),
            PlaylistItem(url: url("https://radio.example.com/live/news.aac")),
        ])
    }

    @Test("locations are URI references: escapes stand, spaces and non-ASCII are encoded, xml:base applies")
    func relativeLocations() throws {
        let text = """
        <playlist version="1" xmlns="http://xspf.org/ns/0/"><trackList xml:base="sub/">
          <track><location>My Station.mp3</location></track>
          <track xml:base="http://mirror.example.net/radio/"><location>Ünï.ogg</location><location>../up.mp3</location></track>
          <track><location xml:base="//cdn.example.org/x/">y.mp3</location></track>
        </trackList></playlist>
        """
        #expect(try parse(text).map { $0.urls.map(\.absoluteString) } == [
            ["https://radio.example.com/lists/sub/My%20Station.mp3"],
            ["http://mirror.example.net/radio/%C3%9Cn%C3%AF.ogg", "http://mirror.example.net/up.mp3"],
            ["https://cdn.example.org/x/y.mp3"],
        ])
    }

    @Test("a list from a server never reaches a local file, by location or by xml:base; a local list may")
    func localFilesOnlyFromLocalLists() throws {
        let text = """
        <playlist xmlns="http://xspf.org/ns/0/"><trackList>
          <track><location>file:///etc/passwd</location><location>a.mp3</location></track>
          <track xml:base="file:///etc/"><location>passwd</location></track>
          <track><location>/srv/music/b.mp3</location></track>
          <track><location>\\\\server\\share\\c.mp3</location></track>
          <track><location>C:\\Music\\d.mp3</location></track>
          <track><location>//host/share/e.mp3</location></track>
        </trackList></playlist>
        """
        #expect(try parse(text).map { $0.urls.map(\.absoluteString) } == [
            ["https://radio.example.com/lists/a.mp3"],
            ["https://radio.example.com/lists/passwd"],
            ["https://radio.example.com/srv/music/b.mp3"],
            ["https://host/share/e.mp3"],
        ])
        #expect(try parse(text, base: local).map { $0.urls.map(\.absoluteString) } == [
            ["file:///etc/passwd", "file:///home/u/Music/a.mp3"],
            ["file:///etc/passwd"],
            ["file:///srv/music/b.mp3"],
        ])
    }

    @Test("ISO-8859-1 when declared, a UTF-8 byte order mark, UTF-16 by its byte order mark")
    func encodings() throws {
        let body = "<playlist xmlns=\"http://xspf.org/ns/0/\"><trackList><track><location>http://s.example.com/a</location>"
            + "<title>Caf\u{E9} R\u{E4}dio</title></track></trackList></playlist>"
        let latin1 = Array("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n".utf8) + body.unicodeScalars.map { UInt8($0.value) }
        #expect(try XSPFParser.parse(latin1, base: remote).first?.title == "Café Rädio")
        #expect(try XSPFParser.parse([0xEF, 0xBB, 0xBF] + Array(body.utf8), base: remote).first?.title == "Café Rädio")
        let utf16 = utf16Bytes("<?xml version=\"1.0\" encoding=\"UTF-16\"?>\(body)")
        #expect(try XSPFParser.parse(utf16, base: remote).first?.title == "Café Rädio")
        // Undeclared Latin-1 is not XML: one error naming the line.
        let undeclared = Array("<playlist>\n<trackList>".utf8) + [0xE9] + Array("</trackList></playlist>".utf8)
        #expect(throws: ParseError.malformed("an XSPF playlist that is not well-formed XML (line 2: bytes that are not UTF-8)")) {
            try XSPFParser.parse(undeclared, base: remote)
        }
    }

    @Test("XSPF without its namespace is read; another root or namespace, or broken XML, is one ParseError")
    func notXSPF() throws {
        #expect(try parse("<playlist><trackList><track><location>http://a.example/s</location></track></trackList></playlist>").count == 1)
        #expect(try parse("<playlist xmlns=\"http://xspf.org/ns/0/\"/>").isEmpty)
        #expect(throws: ParseError.unsupported("an XML document that is not an XSPF playlist (its root is <rss>)")) {
            try parse("<rss version=\"2.0\"><channel/></rss>")
        }
        #expect(throws: ParseError.unsupported("an XML document that is not an XSPF playlist (its root is <playlist>)")) {
            try parse("<playlist xmlns=\"http://example.com/other\"/>")
        }
        for broken in [
            "<playlist><trackList><track><location>http://a/</location></track></playlist>",
            "<playlist><trackList><track><location>http://a/?x=1&y=2</location></track></trackList></playlist>",
            "<playlist><title>a</title>",
            "",
            "<!DOCTYPE playlist [<!ENTITY boom \"boom\">]><playlist/>",
            "#EXTM3U\nhttp://a/\n",
        ] {
            #expect(throws: ParseError.self, "\(broken)") { try parse(broken) }
        }
    }

    @Test("alternatives are bounded, and so are titles")
    func bounds() throws {
        let locations = (0..<40).map { "<location>http://s\($0).example.com/</location>" }.joined()
        let title = String(repeating: "t", count: 100_000)
        let items = try parse("<playlist><trackList><track>\(locations)<title>\(title)</title></track></trackList></playlist>")
        #expect(items.first?.urls.count == 32)
        #expect(items.first?.title?.utf8.count == 64 * 1024)
    }

    @Test func mutationsNeverCrash() {
        var generator = MutationGenerator(seed: 0x5F5F)
        let seed = Array(Self.stations.utf8)
        for _ in 0..<2000 {
            _ = try? XSPFParser.parse(generator.mutate(seed), base: remote)
        }
    }
}

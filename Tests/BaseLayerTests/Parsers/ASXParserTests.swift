import Foundation
import Parsers
import Testing
import TestSupport

/// Windows Media metafiles (ASX 3.0) as Microsoft documented them and as stations wrote them:
/// names in any case, URL rollover between refs, bare ampersands, ANSI and UTF-16 text — and
/// input that no leniency makes a list.
struct ASXParserTests {
    let remote = URL(string: "http://radio.example.com/listen/station.asx")!

    private func parse(_ text: String) throws -> [PlaylistItem] {
        try ASXParser.parse(Array(text.utf8), base: remote)
    }

    private func url(_ text: String) -> URL { URL(string: text)! }

    static let station = """
    <ASX VERSION="3.0">
      <!-- Example Radio: <Entry> in a comment is no entry & no error -->
      <TITLE>Example Radio</TITLE>
      <BASE HREF="http://scripts.example.com/" />
      <ABSTRACT>Jazz around the clock</ABSTRACT>
      <Entry>
        <Title>Short announcement</Title>
        <Ref href = "intro/announce.mp3" />
        <DURATION VALUE="00:00:30.5" />
      </ENTRY>
      <ENTRY>
        <TITLE>Example Radio Live</TITLE>
        <AUTHOR>Example Radio</AUTHOR>
        <COPYRIGHT>&#169;2005 Example Radio</COPYRIGHT>
        <REF HREF="mms://wm.example.com/live" />
        <REF HREF="http://stream.example.com:8000/live?sid=1&type=mp3" />
        <REF HREF="http://backup.example.com/live.mp3">
          <DURATION VALUE="01:00:00" />
        </REF>
        <PARAM NAME="Prebuffer" VALUE="true" />
      </ENTRY>
      <ENTRY><REF HREF="mms://wm.example.com/only-mms" /></ENTRY>
      <EntryRef HREF="more.asx" />
      <REPEAT COUNT="2"><ENTRY><REF HREF="/jingle.mp3"/><DURATION VALUE="12"/></ENTRY></REPEAT>
    </ASX>
    """

    @Test("entries with their refs as alternatives, titles, authors and durations; entryrefs as entries")
    func station() throws {
        #expect(try parse(Self.station) == [
            PlaylistItem(url: url("http://radio.example.com/listen/intro/announce.mp3"), title: "Short announcement", duration: 30.5),
            PlaylistItem(url: url("http://stream.example.com:8000/live?sid=1&type=mp3"), alternatives: [url("http://backup.example.com/live.mp3")],
                         title: "Example Radio Live", creator: "Example Radio"),
            PlaylistItem(url: url("http://radio.example.com/listen/more.asx")),
            PlaylistItem(url: url("http://radio.example.com/jingle.mp3"), duration: 12),
        ])
    }

    @Test("what Windows Media Player let by: bare &, unknown entities, unquoted values, names in any case")
    func leniency() throws {
        let text = """
        <Asx Version=3.0>
        <entry><TITLE>Rock & Roll &copy; &#x263A; &amp;</Title><ref HREF=http://a.example.com/s?x=1&y=2 /></Entry>
        <ENTRY><REF href='http://b.example.com/"q"'/><Ref Href=http://c.example.com/ /></ENTRY>
        </asx>
        """
        let items = try parse(text)
        #expect(items.map(\.title) == ["Rock & Roll &copy; ☺ &", nil])
        #expect(items.map { $0.urls.map(\.absoluteString) } == [
            ["http://a.example.com/s?x=1&y=2"],
            ["http://b.example.com/%22q%22", "http://c.example.com/"],
        ])
    }

    @Test("ANSI (windows-1252) text, declared or not; UTF-8 with its mark; Notepad's UTF-16")
    func encodings() throws {
        let body = "<asx version=\"3.0\"><entry><title>Caf\u{E9} \u{93}Live\u{94}</title><ref href=\"http://s.example.com/\"/></entry></asx>"
        let ansi = body.unicodeScalars.map { UInt8($0.value) }
        #expect(try ASXParser.parse(ansi, base: remote).first?.title == "Café “Live”")
        let declared = Array("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>".utf8) + ansi
        #expect(try ASXParser.parse(declared, base: remote).first?.title == "Café “Live”")
        let utf8 = body.replacingOccurrences(of: "\u{93}", with: "“").replacingOccurrences(of: "\u{94}", with: "”")
        #expect(try ASXParser.parse([0xEF, 0xBB, 0xBF] + Array(("<?xml version=\"1.0\" encoding=\"utf-8\"?>" + utf8).utf8), base: remote)
            .first?.title == "Café “Live”")
        let utf16 = utf16Bytes("<?xml version=\"1.0\" encoding=\"UTF-16\"?>\r\n" + utf8)
        #expect(try ASXParser.parse(utf16, base: remote).first?.title == "Café “Live”")
        let utf16BE = utf16Bytes(utf8, bigEndian: true)
        #expect(try ASXParser.parse(utf16BE, base: remote).first?.title == "Café “Live”")
    }

    @Test("refs that are local files, Windows paths or schemes we cannot play are dropped from a remote list")
    func refusedRefs() throws {
        let text = """
        <asx version="3.0"><entry>
          <ref href="file:///etc/passwd"/><ref href="C:\\Media\\a.wma"/><ref href="\\\\server\\share\\b.wma"/>
          <ref href="rtsp://x.example.com/c"/><ref href="mmsh://x.example.com/d"/><ref href="javascript:alert(1)"/>
          <ref href="  https://ok.example.com/e  "/><ref/>
        </entry></asx>
        """
        #expect(try parse(text).map(\.urls) == [[url("https://ok.example.com/e")]])
        #expect(try ASXParser.parse(Array(text.utf8), base: URL(fileURLWithPath: "/home/u/radio.asx")).map(\.urls)
            == [[url("file:///etc/passwd"), url("https://ok.example.com/e")]])
    }

    @Test("what is still not XML, or not ASX, is one ParseError")
    func malformed() throws {
        #expect(throws: ParseError.unsupported("an XML document that is not an ASX playlist (its root is <playlist>)")) {
            try parse("<playlist xmlns=\"http://xspf.org/ns/0/\"/>")
        }
        #expect(throws: ParseError.malformed("an ASX playlist that is not well-formed XML (line 1: </entry> where </ref> was expected)")) {
            try parse("<asx><entry><ref href=\"http://a/\"></entry></asx>")
        }
        for broken in [
            "", "[Reference]\r\nRef1=http://a.example.com/s\r\n", "<asx><entry>", "<asx><entry><ref href=\"a</entry></asx>",
            "<asx><entry><title>a < b</title></entry></asx>", "<asx><entry/></asx><asx/>", "<asx><!-- never ends",
            "<asx><entry><ref href=\"http://a/\"/><title><![CDATA[x</title></entry></asx>",
        ] {
            #expect(throws: ParseError.self, "\(broken)") { try parse(broken) }
        }
        #expect(try parse("<ASX VERSION=\"3.0\"></ASX>").isEmpty)
    }

    @Test func mutationsNeverCrash() {
        var generator = MutationGenerator(seed: 0xA5A5)
        let seed = Array(Self.station.utf8)
        for _ in 0..<2000 {
            _ = try? ASXParser.parse(generator.mutate(seed), base: remote)
        }
    }
}

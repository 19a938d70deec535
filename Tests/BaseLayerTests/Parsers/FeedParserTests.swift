import FeedAnswers
import Foundation
import Parsers
import Testing
import TestSupport

/// Feeds as podcast hosts write them (RSS with iTunes tags, Atom), and as they break them.
struct FeedParserTests {
    let base = URL(string: "https://example.com/podcasts/show/feed.xml")!

    private func parse(_ xml: String) throws -> Feed {
        try FeedParser.parse(Array(xml.utf8), base: base)
    }

    private func date(_ text: String) -> Date? { InternetDate.rfc3339(text) }

    static let podcast = """
    <?xml version="1.0" encoding="UTF-8"?>
    <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd" xmlns:atom="http://www.w3.org/2005/Atom">
      <channel>
        <title>The Example Show</title>
        <atom:link href="https://example.com/podcasts/show/feed.xml" rel="self" type="application/rss+xml"/>
        <itunes:author>Jane Host</itunes:author>
        <itunes:image href="https://example.com/art/show.jpg"/>
        <image><url>https://example.com/art/rss.png</url><title>Not the feed title</title></image>
        <item>
          <title>Episode 1: Beginnings</title>
          <enclosure url="https://cdn.example.com/ep1.mp3" length="12345678" type="audio/mpeg"/>
          <guid isPermaLink="false">ep-1</guid>
          <pubDate>Mon, 01 Jan 2024 10:00:00 GMT</pubDate>
          <itunes:duration>1:02:03</itunes:duration>
        </item>
        <item>
          <title><![CDATA[Episode 3 & <More>]]></title>
          <enclosure url="https://cdn.example.com/ep3.m4a" length="0" type="audio/x-m4a"/>
          <guid>ep-3</guid>
          <pubDate>Wed, 03 Jan 2024 09:30:00 -0500</pubDate>
          <itunes:duration>62:03</itunes:duration>
          <itunes:image href="https://example.com/art/ep3.jpg"/>
        </item>
        <item>
          <title>A video episode</title>
          <enclosure url="https://cdn.example.com/ep2.mp4" length="1" type="video/mp4"/>
          <pubDate>Tue, 02 Jan 2024 10:00:00 GMT</pubDate>
        </item>
        <item>
          <title>Episode 2</title>
          <enclosure url="https://cdn.example.com/ep2.mp3" type="audio/mpeg"/>
          <pubDate>Tue, 02 Jan 2024 10:00:00 EST</pubDate>
          <itunes:duration>3723</itunes:duration>
        </item>
        <item><title>No enclosure at all</title></item>
      </channel>
    </rss>
    """

    @Test func realLookingPodcast() throws {
        let feed = try parse(Self.podcast)
        #expect(feed.title == "The Example Show")
        #expect(feed.author == "Jane Host")
        #expect(feed.items.map(\.title) == ["Episode 3 & <More>", "Episode 2", "Episode 1: Beginnings"])
        let first = try #require(feed.items.last)
        #expect(first == FeedItem(title: "Episode 1: Beginnings", url: URL(string: "https://cdn.example.com/ep1.mp3")!,
                                  mimeType: "audio/mpeg", length: 12_345_678, published: date("2024-01-01T10:00:00Z"),
                                  guid: "ep-1", duration: 3723, imageURL: URL(string: "https://example.com/art/show.jpg")))
        #expect(feed.items[0].published == date("2024-01-03T14:30:00Z"))
        #expect(feed.items[0].length == nil)
        #expect(feed.items[0].imageURL == URL(string: "https://example.com/art/ep3.jpg"))
        #expect(feed.items[0].duration == 3723)
        #expect(feed.items[1].published == date("2024-01-02T15:00:00Z"))
        #expect(feed.items[1].guid == nil)
    }

    /// Podcasting 2.0's `<podcast:chapters>` (podcastindex.org/namespace/1.0, "chapters"): the
    /// JSON file's URL, resolved as the enclosure is; another type (the namespace allows any) is not read.
    @Test func podcastChapters() throws {
        let feed = try parse("""
            <rss version="2.0" xmlns:podcast="https://podcastindex.org/namespace/1.0"><channel><title>C</title>
            <item><title>A</title><enclosure url="a.mp3" type="audio/mpeg"/>
            <podcast:chapters url="chapters/a.json" type="application/json+chapters"/></item>
            <item><title>B</title><enclosure url="b.mp3" type="audio/mpeg"/><podcast:chapters url="b.psc" type="application/psc+xml"/></item>
            </channel></rss>
            """)
        #expect(feed.items.map(\.chaptersURL) == [URL(string: "https://example.com/podcasts/show/chapters/a.json"), nil])
    }

    @Test func atomFeed() throws {
        let feed = try parse("""
        <?xml version="1.0" encoding="utf-8"?>
        <feed xmlns="http://www.w3.org/2005/Atom">
          <title>Atom Cast</title>
          <author><name>A. Writer</name></author>
          <logo>/logo.png</logo>
          <entry>
            <title>Older</title><id>urn:uuid:1</id>
            <updated>2023-05-01T12:00:00+02:00</updated>
            <link rel="alternate" href="https://example.com/older.html"/>
            <link rel="enclosure" href="media/older.ogg" type="audio/ogg" length="2048"/>
          </entry>
          <entry>
            <title>Newer</title><id>urn:uuid:2</id>
            <published>2023-06-01T00:00:00.250Z</published>
            <updated>2020-01-01T00:00:00Z</updated>
            <link rel="enclosure" href="https://example.com/newer.opus" type="audio/ogg; codecs=opus"/>
          </entry>
          <entry><title>Text only</title><updated>2024-01-01T00:00:00Z</updated></entry>
        </feed>
        """)
        #expect(feed.title == "Atom Cast")
        #expect(feed.author == "A. Writer")
        #expect(feed.items.map(\.title) == ["Newer", "Older"])
        #expect(feed.items[1].url.absoluteString == "https://example.com/podcasts/show/media/older.ogg")
        #expect(feed.items[1].length == 2048)
        #expect(feed.items[1].guid == "urn:uuid:1")
        #expect(feed.items[1].published == date("2023-05-01T10:00:00Z"))
        #expect(feed.items[0].published == Date(timeIntervalSince1970: 1_685_577_600.0))
        #expect(feed.items[0].imageURL?.absoluteString == "https://example.com/logo.png")
    }

    @Test func relativeAndOddEnclosureURLs() throws {
        let feed = try parse("""
        <rss version="2.0"><channel><title>T</title>
          <item><title>a</title><enclosure url="../files/My Episode #1.mp3" type="audio/mpeg"/></item>
          <item><title>b</title><enclosure url="/root/ep%202.mp3" type="audio/mpeg"/></item>
          <item><title>c</title><enclosure url="ftp://example.com/c.mp3" type="audio/mpeg"/></item>
          <item><title>d</title><enclosure url="file:///etc/passwd" type="audio/mpeg"/></item>
          <item><title>e</title><enclosure url="javascript:alert(1)" type="audio/mpeg"/></item>
          <item><title>f</title><enclosure url="https://example.com/f?id=1&amp;x=2"/></item>
          <item><title>g</title><enclosure url="https://example.com/é.mp3" type="application/octet-stream"/></item>
          <item><title>h</title><enclosure url="" type="audio/mpeg"/></item>
          <item><enclosure url="https://example.com/untitled-episode.mp3" type="audio/mpeg"/></item>
        </channel></rss>
        """)
        #expect(feed.items.map(\.url.absoluteString) == [
            "https://example.com/podcasts/files/My%20Episode%20#1.mp3",
            "https://example.com/root/ep%202.mp3",
            "https://example.com/f?id=1&x=2",
            "https://example.com/%C3%A9.mp3",
            "https://example.com/untitled-episode.mp3",
        ])
        #expect(feed.items.last?.title == "untitled-episode")
    }

    @Test func badDatesAndMissingFieldsKeepDocumentOrderAfterDatedItems() throws {
        let feed = try parse("""
        <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"><channel>
          <item><title>no date</title><enclosure url="https://e.com/1.mp3" type="audio/mpeg"/></item>
          <item><title>bad date</title><pubDate>yesterday</pubDate><enclosure url="https://e.com/2.mp3" type="audio/mpeg"/>
            <itunes:duration>about an hour</itunes:duration></item>
          <item><title>dated</title><pubDate>31 Dec 99 23:59 PST</pubDate><enclosure url="https://e.com/3.mp3" type="audio/mpeg"/></item>
          <item><title>impossible</title><pubDate>Fri, 30 Feb 2024 10:00:00 GMT</pubDate><enclosure url="https://e.com/4.mp3" type="audio/mpeg"/></item>
        </channel></rss>
        """)
        #expect(feed.title == "example.com")
        #expect(feed.author == nil)
        #expect(feed.items.map(\.title) == ["dated", "no date", "bad date", "impossible"])
        #expect(feed.items[0].published == date("2000-01-01T07:59:00Z"))
        #expect(feed.items.allSatisfy { $0.duration == nil && $0.guid == nil && $0.mimeType == "audio/mpeg" })
    }

    @Test func iso88591FeedIsConverted() throws {
        var bytes = Array(#"<?xml version="1.0" encoding="ISO-8859-1"?><rss version="2.0"><channel><title>Caf"#.utf8)
        bytes += [0xE9]
        bytes += Array(#"</title><item><title>"#.utf8) + [0x93, 0x41, 0x94]
        bytes += Array(#"</title><enclosure url="https://e.com/1.mp3" type="audio/mpeg"/></item></channel></rss>"#.utf8)
        let feed = try FeedParser.parse(bytes, base: base)
        #expect(feed.title == "Café")
        #expect(feed.items.first?.title == "\u{93}A\u{94}")
        var cp1252 = bytes
        cp1252.replaceSubrange(30..<40, with: Array("windows-1252".utf8))
        #expect(try FeedParser.parse(cp1252, base: base).items.first?.title == "“A”")
    }

    @Test func malformedXMLIsAnError() {
        for xml in ["<rss><channel><title>x</channel></rss>", "", "<rss version=\"2.0\"><channel>", "not xml at all",
                    "<html><body>Not a feed</body></html>", "<?xml version=\"1.0\" encoding=\"Shift_JIS\"?><rss/>"] {
            #expect(throws: ParseError.self, "\(xml)") { try parse(xml) }
        }
    }

    @Test func crashInputsAreErrors() {
        let inputs: [[UInt8]] = [
            Array("<?x?><rss/>".utf8),
            Array("<rss version=\"2.0\"><?x?></rss>".utf8),
            Array("<?xml?><rss/>".utf8),
            Array("<?xml-stylesheet href=\"a.xsl\"?><rss/>".utf8),
            Array("<rss><".utf8) + [0xC3, 0x28] + Array("/></rss>".utf8),
            Array("<rss><a".utf8) + [0xFF, 0xFE] + Array("/></rss>".utf8),
            Array("<!DOCTYPE rss [<!ENTITY e \"x\">]><rss>&e;</rss>".utf8),
            Array("<rss><!ENTITY e SYSTEM \"file:///etc/passwd\"></rss>".utf8),
            [0xFF, 0xFE, 0x3C, 0x00],
        ]
        for input in inputs {
            #expect(throws: ParseError.self) { try FeedParser.parse(input, base: base) }
        }
    }

    @Test("an item listing 20,000 files is read in time linear in them (each file cost a copy of all before: 20 s in release)",
          .timeLimit(.minutes(1)))
    func manyEnclosuresInOneItem() throws {
        let files = (0..<20_000).map { "<enclosure url=\"https://e.com/\($0).mp3\" type=\"audio/mpeg\"/>" }.joined()
        let feed = try parse("<rss><channel><item><title>All</title>\(files)</item></channel></rss>")
        #expect(feed.items.count == 20_000 && feed.items.last?.title == "All (20000)")
    }

    @Test func cdataAndCommentsMayMentionProcessingInstructions() throws {
        let feed = try parse("""
        <rss version="2.0"><channel><title>PHP Weekly</title><!-- <?php ?> -->
        <item><title><![CDATA[Why <?php echo ?> is fine]]></title><enclosure url="https://e.com/1.mp3" type="audio/mpeg"/></item>
        </channel></rss>
        """)
        #expect(feed.items.first?.title == "Why <?php echo ?> is fine")
    }

    @Test func mutationsNeverCrash() {
        var generator = MutationGenerator(seed: 0xFEED)
        let original = Array(Self.podcast.utf8)
        var parsed = 0
        for _ in 0..<3000 {
            if (try? FeedParser.parse(generator.mutate(original), base: base)) != nil { parsed += 1 }
        }
        #expect(parsed > 0)
    }

    @Test("a DOCTYPE naming only an external DTD (RSS 0.91's) is read, and mutations of it never crash the parser")
    func plainDoctypeMutationsNeverCrash() throws {
        let original = Array("""
            <?xml version="1.0"?>
            <!DOCTYPE rss PUBLIC "-//Netscape Communications//DTD RSS 0.91//EN" "http://127.0.0.1:9/rss-0.91.dtd">
            <rss version="0.91"><channel><title>Old</title><item><title>A</title><enclosure url="https://e.com/a.mp3" type="audio/mpeg"/></item></channel></rss>
            """.utf8)
        #expect(try FeedParser.parse(original, base: base).items.map(\.title) == ["A"])
        var generator = MutationGenerator(seed: 0xD0C7)
        var parsed = 0
        for _ in 0..<3000 {
            if (try? FeedParser.parse(generator.mutate(original), base: base)) != nil { parsed += 1 }
        }
        #expect(parsed > 0)
    }

    @Test("a duration is a clock (itunes:duration, a chapter start) or, in a feed only, bare seconds",
          arguments: [("1:02:03", 3723.0), ("62:03", 3723), ("3723", 3723), ("3723.5", 3723.5), ("0:00:05", 5),
                      ("1:60:00", nil), ("", nil), ("-5", nil), ("1::2", nil), ("1:2:3:4", nil), ("12.5:00", nil)] as [(String, Double?)])
    func durations(_ text: String, _ expected: Double?) {
        #expect(ClockTime.seconds(text, plainSeconds: true) == expected)
        // A chapter start (Vorbis comments) is a clock only: a bare number is none.
        #expect(ClockTime.seconds(text, plainSeconds: false) == (text.contains(":") ? expected : nil))
    }

    @Test(arguments: [
        ("Sat, 07 Sep 2002 00:00:01 GMT", "2002-09-07T00:00:01Z"),
        ("Sat, 7 Sep 2002 00:00 +0200", "2002-09-06T22:00:00Z"),
        ("07 Sep 2002 00:00:01 EDT", "2002-09-07T04:00:01Z"),
        ("Sat, 07 Sep 2002 00:00:01 -04:00 (EDT)", "2002-09-07T04:00:01Z"),
        ("Sat, 07 September 2002 00:00:01 Z", "2002-09-07T00:00:01Z"),
        ("Sep 07 2002 00:00:01 GMT+2", "2002-09-06T22:00:01Z"),  // bent, still read
        ("Sat, 07 Sep 2002", "2002-09-07T00:00:00Z"),
        ("2002-09-07T00:00:01+02:00", "2002-09-06T22:00:01Z"),
        ("2002-09-07 00:00:01Z", "2002-09-07T00:00:01Z"),
        ("2002-09-07", "2002-09-07T00:00:00Z"),
        ("2024-02-29T12:00:00Z", "2024-02-29T12:00:00Z"),
        ("1970-01-01T00:00:00Z", "1970-01-01T00:00:00Z"),
    ])
    func datesThatParse(_ text: String, _ expected: String) {
        #expect(InternetDate.parse(text) == InternetDate.rfc3339(expected))
        #expect(InternetDate.parse(text) != nil)
    }

    @Test func knownInstant() {
        #expect(InternetDate.parse("2001-09-09T01:46:40Z")?.timeIntervalSince1970 == 1_000_000_000)
        #expect(InternetDate.parse("Thu, 01 Jan 1970 00:00:00 GMT")?.timeIntervalSince1970 == 0)
    }

    @Test(arguments: ["", "tomorrow", "Sat, 32 Sep 2002 00:00:00 GMT", "Sat, 07 Foo 2002 00:00:00 GMT", "2023-02-29",
                      "2002-13-01", "2002-09-07T25:00:00Z", "2002-09-07T00:00:00+99:00", "Sat, 07 Sep 2002 24:00:00 GMT",
                      "99999-01-01", "2002-09-07Tjunk"])
    func datesThatDoNot(_ text: String) {
        #expect(InternetDate.parse(text) == nil)
    }
}

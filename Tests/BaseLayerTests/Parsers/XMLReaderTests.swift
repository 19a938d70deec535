import ComponentTestSupport
import Parsers
import Testing
import TestSupport

/// Our XML reader on its own: namespaces as feeds and WebDAV servers write them, references,
/// CDATA, encodings, and every way a document from outside can be broken or hostile — each an
/// error naming its line, never a crash, a hang or an expanded entity.
struct XMLReaderTests {
    /// The events of `text`, one line each: `<{namespace}local a=v>`, `"text"`, `</local>`.
    private func events(_ text: String, _ rules: XMLRules = XMLRules(kind: "a test document")) throws -> [String] {
        try events(Array(text.utf8), rules)
    }

    private func events(_ bytes: [UInt8], _ rules: XMLRules = XMLRules(kind: "a test document")) throws -> [String] {
        var reader = try XMLReader(bytes, rules: rules)
        var lines: [String] = []
        while let event = try reader.next() {
            switch event {
            case .start(let element):
                let attributes = element.attributes.map { " \($0.name.namespace.isEmpty ? "" : "{\($0.name.namespace)}")\($0.name.local)=\($0.value)" }
                lines.append("<{\(element.name.namespace)}\(element.name.local)\(attributes.joined())>")
            case .text(let text): lines.append("\"\(text)\"")
            case .end(let name): lines.append("</\(name.local)>")
            }
        }
        return lines
    }

    /// The message of the error `text` is refused with.
    private func error(_ text: String, _ rules: XMLRules = XMLRules(kind: "a test document")) -> String {
        error(Array(text.utf8), rules)
    }

    private func error(_ bytes: [UInt8], _ rules: XMLRules = XMLRules(kind: "a test document")) -> String {
        do {
            _ = try events(bytes, rules)
            return "no error"
        } catch {
            return "\(error)"
        }
    }

    private static let feedRules = XMLRules.forFeeds(kind: "a podcast feed")

    @Test("namespaces resolve to URIs whatever the prefix, end with their element, and can be undeclared")
    func namespaces() throws {
        #expect(try events("""
            <ns0:multistatus xmlns:ns0="DAV:"><ns0:response xmlns="urn:x"><href a="1" ns0:b="2"/></ns0:response>\
            <D:x xmlns:D="urn:y"><D:y xmlns:D="urn:z"/><D:y/></D:x><e xmlns=""/></ns0:multistatus>
            """) == [
            "<{DAV:}multistatus>", "<{DAV:}response>", "<{urn:x}href a=1 {DAV:}b=2>", "</href>", "</response>",
            "<{urn:y}x>", "<{urn:z}y>", "</y>", "<{urn:y}y>", "</y>", "</x>", "<{}e>", "</e>", "</multistatus>",
        ])
        #expect(try events(#"<a xml:base="http://e/"/>"#) == ["<{}a {http://www.w3.org/XML/1998/namespace}base=http://e/>", "</a>"])
    }

    @Test("an undeclared prefix is an error, or — for feeds — a name in no namespace with its prefix kept")
    func undeclaredPrefixes() throws {
        #expect(error("<rss><itunes:author>A</itunes:author></rss>").contains("the prefix itunes: that no xmlns:itunes declares"))
        var reader = try XMLReader(Array("<rss><itunes:author>A</itunes:author></rss>".utf8), rules: Self.feedRules)
        _ = try reader.next()
        guard case .start(let element)? = try reader.next() else { Issue.record("no start"); return }
        #expect(element.name == XMLName(namespace: "", local: "author", prefix: "itunes"))
    }

    @Test("namespace declarations XML forbids are errors", arguments: [
        #"<p:a xmlns:p=""/>"#, #"<a xmlns:xml="urn:x"/>"#, #"<a xmlns:xmlns="urn:x"/>"#, #"<a xmlns:p="http://www.w3.org/XML/1998/namespace"/>"#,
        #"<:a/>"#, #"<a:/>"#,
    ])
    func forbiddenDeclarations(_ text: String) {
        #expect(error(text).contains("not well-formed"))
    }

    @Test("character references, the five predefined entities, CDATA and comments make one text; line ends read as \\n")
    func text() throws {
        #expect(try events("<a>x &lt;&gt;&amp;&apos;&quot; &#233;&#xE9;&#x1F3B5;<![CDATA[<b>&amp;]]><!-- c -->y\r\nz\rw</a>")
            == ["<{}a>", "\"x <>&'\" éé🎵<b>&amp;y\nz\nw\"", "</a>"])
        #expect(try events("<a v=\"1&#10;2\r\n3\t4 &lt;&#x9;\" w='\"'/>") == ["<{}a v=1\n2 3 4 <\t w=\">", "</a>"])
        #expect(try events("<a><b/> <!-- only a comment --></a>") == ["<{}a>", "<{}b>", "</b>", "\" \"", "</a>"])
    }

    @Test("references that are not allowed are errors", arguments: [
        "<a>&nbsp;</a>", "<a>&#0;</a>", "<a>&#xD800;</a>", "<a>&#x110000;</a>", "<a>&#99999999999;</a>", "<a>& b</a>",
        "<a>&#x;</a>", "<a>&amp</a>", "<a b=\"&e;\"/>", "<a>]]></a>",
    ])
    func badReferences(_ text: String) {
        #expect(error(text).contains("not well-formed XML (line 1:"))
    }

    @Test("a malformed document is one error naming its line")
    func malformedNamesTheLine() {
        #expect(error("<a>\n<b>\n</a>") == "malformed: a test document that is not well-formed XML (line 3: </a> where </b> was expected)")
        #expect(error("<a>\n<b>text") == "malformed: a test document that is not well-formed XML (line 2: the document ends before </b>)")
        #expect(error("<a/>\n<b/>").contains("(line 2: a second root element)"))
        #expect(error("<a/>\ntext").contains("(line 2: text after the root element)"))
        #expect(error("").contains("(line 1: no root element)"))
        #expect(error(Array("<a>\n\n<b>".utf8) + [0xC3, 0x28] + Array("</b></a>".utf8)).contains("(line 3: bytes that are not UTF-8)"))
        #expect(error("<a>\u{1}</a>").contains("a control character"))
    }

    @Test("broken tags are errors", arguments: [
        "<a b=c/>", "<a b=\"1\" b=\"2\"/>", "<a b=\"1\"c=\"2\"/>", "<a b=\"<\"/>", "<a b/>", "<a b=\"1/>", "<a", "<a></b>", "</a>",
        "<1a/>", "<a><!ELEMENT x></a>", "<a><![CDATA[x</a>", "<a><!-- x</a>", "text<a/>", "<a>", "<a/></a>",
        "<a xmlns:p=\"urn:p\" p:b=\"1\" p:b=\"2\"/>",
    ])
    func brokenTags(_ text: String) {
        #expect(error(text).contains("not well-formed"), "\(text)")
    }

    @Test("a duplicate among many attributes is found (the set past the first sixteen)")
    func duplicateAmongMany() throws {
        let many = (0..<40).map { " a\($0)=\"\($0)\"" }.joined()
        #expect(try events("<e\(many)/>").count == 2)
        #expect(error("<e\(many) a3=\"again\"/>").contains("the attribute a3 twice"))
        #expect(error("<e\((0..<300).map { " a\($0)=\"\"" }.joined())/>").contains("more than 256 attributes"))
    }

    @Test("UTF-8 with a byte order mark, UTF-16 either way round with one; a declared UTF-16 without one is refused")
    func unicodeEncodings() throws {
        let text = "\u{FEFF}<?xml version=\"1.0\" encoding=\"UTF-16\"?><a b=\"é\">🎵 x</a>"
        let expected = ["<{}a b=é>", "\"🎵 x\"", "</a>"]
        #expect(try events(Array(text.utf8)) == expected)
        let units = Array(text.utf16)
        #expect(try events(units.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }) == expected)
        #expect(try events(units.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }) == expected)
        #expect(error([0xFF, 0xFE, 0x3C, 0x00, 0x00, 0xD8]).contains("not UTF-16"))
        #expect(error("<?xml version=\"1.0\" encoding=\"UTF-16\"?><a/>") == "unsupported: a test document in an encoding other than UTF-8 (utf-16)")
        #expect(error("<?xml version=\"1.0\" encoding=\"Shift_JIS\"?><a/>", Self.feedRules).contains("other than UTF-8 (shift_jis)"))
    }

    @Test("ISO-8859-1 and windows-1252, declared, are read where the rules allow them (feeds)")
    func singleByteEncodings() throws {
        let body = Array("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><a b=\"".utf8) + [0xE9] + Array("\">".utf8) + [0x93, 0x41, 0x94] + Array("</a>".utf8)
        #expect(try events(body, Self.feedRules) == ["<{}a b=é>", "\"\u{93}A\u{94}\"", "</a>"])
        var windows = body
        windows.replaceSubrange(30..<40, with: Array("windows-1252".utf8))
        #expect(try events(windows, Self.feedRules) == ["<{}a b=é>", "\"“A”\"", "</a>"])
        #expect(error(body).contains("in an encoding other than UTF-8 (iso-8859-1)"))
    }

    @Test("the XML declaration: first (after a byte order mark and white space) and well formed, or an error")
    func declarations() throws {
        #expect(try events("\u{FEFF}\n  <?xml version=\"1.0\" encoding=\"utf-8\" standalone='yes'?><a/>") == ["<{}a>", "</a>"])
        for text in ["<?xml?><a/>", "<?xml version=\"2.0\"?><a/>", "<?xml version=\"1.0\"?><?xml version=\"1.0\"?><a/>",
                     "<?xml encoding=\"utf-8\" version=\"1.0\"?><a/>", "<?xml version=\"1.0\" standalone=\"maybe\"?><a/>",
                     "<a><?xml version=\"1.0\"?></a>"] {
            #expect(error(text).contains("not well-formed XML (line 1: an XML declaration"), "\(text)")
        }
    }

    @Test("processing instructions are refused unless the rules allow them; `?>` in comments and CDATA is text")
    func instructions() throws {
        #expect(error("<?xml-stylesheet href=\"a.xsl\"?>\n<a/>") == "unsupported: a test document with a processing instruction (line 1)")
        #expect(error("<a>\n<?x?></a>") == "unsupported: a test document with a processing instruction (line 2)")
        var rules = XMLRules(kind: "x")
        rules.instructions = true
        #expect(try events("<?xml-stylesheet href=\"a.xsl\"?><a>1<?php echo ?>2</a><?x?>", rules) == ["<{}a>", "\"12\"", "</a>"])
        #expect(try events("<a><![CDATA[<?x?> <!DOCTYPE]]><!-- <?y?> --></a>") == ["<{}a>", "\"<?x?> <!DOCTYPE\"", "</a>"])
    }

    @Test("a DOCTYPE with declarations is refused before any is read: no entity is ever expanded (billion laughs, XXE)")
    func doctypeWithDeclarations() {
        let laughs = """
            <?xml version="1.0"?>
            <!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
            <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]>
            <lolz>&lol3;</lolz>
            """
        let external = "<!DOCTYPE r [<!ENTITY x SYSTEM \"file:///etc/passwd\">]><r>&x;</r>"
        for rules in [XMLRules(kind: "a test document"), Self.feedRules] {
            #expect(error(laughs, rules).contains("with a DOCTYPE"))
            #expect(error(external, rules).contains("with a DOCTYPE"))
        }
        #expect(error(laughs, Self.feedRules) == "unsupported: a podcast feed with a DOCTYPE with declarations (line 2)")
    }

    @Test("a DOCTYPE naming only an external DTD stands for feeds — never fetched, its entities left as written — and nowhere else")
    func plainDoctype() throws {
        let text = """
            <!DOCTYPE rss PUBLIC "-//Netscape Communications//DTD RSS 0.91//EN"
              "http://127.0.0.1:9/rss-0.91.dtd">
            <rss>caf&eacute; &amp;</rss>
            """
        #expect(try events(text, Self.feedRules) == ["<{}rss>", "\"caf&eacute; &\"", "</rss>"])
        #expect(error(text) == "unsupported: a test document with a DOCTYPE (line 1)")
        #expect(error("<!DOCTYPE rss><rss>&eacute;</rss>", Self.feedRules).contains("the entity &eacute; that nothing declares"))
        #expect(error("<a/><!DOCTYPE a>", Self.feedRules).contains("markup after the root element"))
        #expect(error("<!DOCTYPE a><!DOCTYPE a><a/>", Self.feedRules).contains("not well-formed"))
    }

    @Test("depth is bounded: a hundred thousand nested elements are an error, not a stack overflow")
    func depth() throws {
        let deep = String(repeating: "<a>", count: 100_000) + String(repeating: "</a>", count: 100_000)
        #expect(error(deep).contains("elements nested deeper than 256"))
        var rules = XMLRules(kind: "x")
        rules.maxDepth = 3
        #expect(try events("<a><b><c/></b></a>", rules).count == 6)
        #expect(error("<a><b><c><d/></c></b></a>", rules).contains("nested deeper than 3"))
        #expect(error("<\(String(repeating: "n", count: 2000))/>").contains("longer than 1000 bytes"))
    }

    @Test("what the old guard refused is still refused", arguments: [
        "<?x?><a/>", "<a><?x?></a>", "<?xml?><a/>", "<?xml version=\"1.0\"?><?xml version=\"1.0\"?><a/>", "<?xmlfoo version=\"1.0\"?><a/>",
        "<?xml version=\"2.0\"?><a/>", "<!DOCTYPE a><a/>", "<a><!ENTITY x \"y\"></a>", "<?xml version=\"1.0\" encoding=\"UTF-16\"?><a/>",
        "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><a/>", "<a><![CDATA[unterminated <?x?>",
    ])
    func guardCases(_ text: String) {
        #expect(error(text) != "no error")
    }

    @Test("mutated documents are read or refused, never a crash", arguments: [XMLRules(kind: "x"), XMLRules.forFeeds(kind: "x")])
    func mutations(_ rules: XMLRules) {
        var generator = MutationGenerator(seed: 0x0A11)
        let seeds = [
            "<?xml version=\"1.0\"?><a:b xmlns:a=\"urn:a\" c=\"d&amp;\"><d>e&#233;<![CDATA[f]]><!--g--></d></a:b>",
            "<!DOCTYPE rss SYSTEM \"x\"><rss><itunes:a b='c'>&eacute;</itunes:a></rss>", "\u{FEFF}<a>\r\n</a>",
        ].map { Array($0.utf8) }
        var read = 0
        for round in 0..<3000 {
            if (try? events(generator.mutate(seeds[round % seeds.count]), rules)) != nil { read += 1 }
        }
        #expect(read > 0)
    }
}

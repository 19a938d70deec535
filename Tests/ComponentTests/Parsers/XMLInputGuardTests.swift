import Foundation
import Parsers

#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
import TestSupport

/// The guard in front of Foundation's XMLParser: what it lets through, what it stops, and that
/// its message names the document.
struct XMLInputGuardTests {
    private func check(_ text: String, latin1: Bool = false) throws -> String {
        let data = try XMLInputGuard.checked(Array(text.utf8), kind: "a PROPFIND answer", convertingLatin1: latin1)
        return String(decoding: data, as: UTF8.self)
    }

    @Test func plainDocumentsPass() throws {
        #expect(try check("<a/>") == "<a/>")
        #expect(try check("\u{FEFF}\n  <?xml version=\"1.0\" encoding=\"utf-8\" standalone='yes'?><a>é</a>")
            == "<?xml version=\"1.0\" encoding=\"utf-8\" standalone='yes'?><a>é</a>")
        #expect(try check("<?xml version='1.0'?><a><![CDATA[<?x?> <!DOCTYPE]]><!-- <?y?> --></a>").hasSuffix("</a>"))
    }

    @Test func errorsNameTheDocument() {
        #expect(throws: ParseError.unsupported("a PROPFIND answer with a processing instruction")) { try check("<?x?><a/>") }
        #expect(throws: ParseError.malformed("a PROPFIND answer that is not UTF-8")) {
            try XMLInputGuard.checked([0x3C, 0x61, 0xFF, 0x2F, 0x3E], kind: "a PROPFIND answer")
        }
    }

    @Test(arguments: ["<?x?><a/>", "<a><?x?></a>", "<?xml?><a/>", "<?xml version=\"1.0\"?><?xml version=\"1.0\"?><a/>",
                      "<?xmlfoo version=\"1.0\"?><a/>", "<?xml version=\"2.0\"?><a/>", "<!DOCTYPE a><a/>",
                      "<a><!ENTITY x \"y\"></a>", "<?xml version=\"1.0\" encoding=\"UTF-16\"?><a/>",
                      "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><a/>", "<a><![CDATA[unterminated <?x?>"])
    func rejected(_ text: String) {
        #expect(throws: ParseError.self) { try check(text) }
    }

    @Test func latin1IsConvertedOnlyWhenAsked() throws {
        let bytes = Array("<?xml version=\"1.0\" encoding=\"iso-8859-1\"?><a>".utf8) + [0xE9] + Array("</a>".utf8)
        #expect(throws: ParseError.self) { try XMLInputGuard.checked(bytes, kind: "x") }
        let data = try XMLInputGuard.checked(bytes, kind: "x", convertingLatin1: true)
        #expect(String(decoding: data, as: UTF8.self) == "<?xml version=\"1.0\" encoding=\"UTF-8\"?><a>é</a>")
    }

    @Test func mutationsOfCrashInputsNeverReachTheParserUnchecked() {
        var generator = MutationGenerator(seed: 0x0A11)
        let seeds = ["<?xml version=\"1.0\"?><a b=\"c\"><d>e</d></a>", "<?x?>", "<!DOCTYPE a>"].map { Array($0.utf8) }
        for _ in 0..<2000 {
            let input = generator.mutate(seeds[Int.random(in: 0..<seeds.count, using: &generator)])
            guard let data = try? XMLInputGuard.checked(input, kind: "x") else { continue }
            let text = String(decoding: data, as: UTF8.self)
            #expect(String(validating: [UInt8](data), as: UTF8.self) != nil)
            #expect(!text.contains("<!DOCTYPE"))
            // Anything that passed parses (or fails) without crashing.
            let parser = XMLParser(data: data)
            parser.shouldResolveExternalEntities = false
            _ = parser.parse()
        }
    }
}

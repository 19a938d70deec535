import Foundation
import Model
import Parsers
import Testing
import WebDAVAnswers

/// WebDAV multistatus answers, well and badly formed.
@Suite struct PropfindParserTests {
    @Test("files and folders, any namespace prefix; only 200 propstats count")
    func entries() throws {
        let xml = """
            <?xml version="1.0" encoding='utf-8'?>
            <x:multistatus xmlns:x="DAV:">
              <x:response><x:href>/dav/Music/</x:href>
                <x:propstat><x:prop><x:resourcetype><x:collection/></x:resourcetype></x:prop><x:status>HTTP/1.1 200 OK</x:status></x:propstat>
              </x:response>
              <x:response><x:href>/dav/Music/a%20b.mp3</x:href>
                <x:propstat><x:prop><x:getcontentlength>1234</x:getcontentlength><x:getetag>"abc"</x:getetag>
                  <x:getcontenttype>audio/mpeg</x:getcontenttype></x:prop><x:status>HTTP/1.1 200 OK</x:status></x:propstat>
                <x:propstat><x:prop><x:getlastmodified/></x:prop><x:status>HTTP/1.1 404 Not Found</x:status></x:propstat>
              </x:response>
            </x:multistatus>
            """
        let entries = try PropfindParser.parse(Data(xml.utf8))
        #expect(entries.count == 2)
        #expect(entries[0].isFolder && entries[0].info == nil)
        #expect(entries[1].href == "/dav/Music/a%20b.mp3")
        #expect(entries[1].info == ResourceInfo(length: 1234, validator: "\"abc\"", contentType: "audio/mpeg"))
        #expect(entries[1].lastModified == nil)
    }

    @Test("malformed answers are errors", arguments: ["<multistatus", "not xml at all", "<a:multistatus xmlns:a=\"DAV:\"><a:response></a:multistatus>"])
    func malformed(_ text: String) {
        #expect(throws: LoaderError.self) { try PropfindParser.parse(Data(text.utf8)) }
    }

    @Test("bytes that are not UTF-8 are an error, not a crash (Foundation's XMLParser traps on them; found by fuzzing)")
    func notUTF8() {
        var bytes = Array("<?xml version=\"1.0\" encoding=\"UTF-8\"?><D:multistatus xmlns:D=\"DAV:\"><D:response><D:href>".utf8)
        bytes += [0xFA, 0x80]
        bytes += Array("</D:href></D:response></D:multistatus>".utf8)
        #expect(throws: LoaderError.self) { try PropfindParser.parse(Data(bytes)) }
        let latin1 = "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><D:multistatus xmlns:D=\"DAV:\"/>"
        #expect(throws: LoaderError.self) { try PropfindParser.parse(Data(latin1.utf8)) }
    }

    @Test("a processing instruction or a DOCTYPE is an error, not a crash (Foundation's XMLParser segfaults on `<?x?>`; found by fuzzing)",
          arguments: ["<?xml version=\"1.0\"?><?x?><d:multistatus xmlns:d=\"DAV:\"/>",
                      "<?x?><d:multistatus xmlns:d=\"DAV:\"/>",
                      "<?xml.0UTF?><d:multistatus xmlns:d=\"DAV:\"/>",
                      "<!DOCTYPE m [<!ENTITY e \"x\">]><d:multistatus xmlns:d=\"DAV:\">&e;</d:multistatus>"])
    func instructionsAndDoctype(_ text: String) {
        #expect(throws: LoaderError.self) { try PropfindParser.parse(Data(text.utf8)) }
    }

    @Test("an answer over 10 MB is read whole (XMLParser's libxml2 refused any document from 10,000,000 bytes on)")
    func largeAnswer() throws {
        // Long display names (a dead property, skipped) make the size with few elements: the debug build reads slowly.
        let name = String(repeating: "A long name, ", count: 300)
        let response = { (number: Int) in
            "<D:response><D:href>/dav/Music/Track%20\(number).flac</D:href><D:propstat><D:prop><D:displayname>\(name)</D:displayname>"
                + "<D:getcontentlength>\(1_000_000 + number)</D:getcontentlength></D:prop><D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response>\n"
        }
        let count = 2_600
        let xml = "<?xml version=\"1.0\"?>\n<D:multistatus xmlns:D=\"DAV:\">\n" + (0..<count).map(response).joined() + "</D:multistatus>\n"
        #expect(xml.utf8.count > 10_200_000)
        let entries = try PropfindParser.parse(Data(xml.utf8))
        #expect(entries.count == count)
        #expect(entries.last?.href == "/dav/Music/Track%202599.flac" && entries.last?.length == 1_002_599)
    }

    @Test("a weak ETag is kept with Last-Modified (compared weakly, never sent in If-Range); an unquoted one reads as quoted")
    func weakETag() throws {
        let xml = """
            <d:multistatus xmlns:d="DAV:"><d:response><d:href>/x.opus</d:href><d:propstat><d:prop>
            <d:getcontentlength>10</d:getcontentlength><d:getetag>W/"w"</d:getetag>
            <d:getlastmodified>Sun, 22 Nov 2026 08:28:48 GMT</d:getlastmodified></d:prop>
            <d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response></d:multistatus>
            """
        let info = try #require(try PropfindParser.parse(Data(xml.utf8)).first?.info)
        #expect(info.validator == "W/\"w\" Sun, 22 Nov 2026 08:28:48 GMT")
        #expect(info.ifRange == nil, "a listing's tag may be of another form than GET's")
        let bare = xml.replacingOccurrences(of: "W/\"w\"", with: "16228609-1795424839-10")
        #expect(try PropfindParser.parse(Data(bare.utf8)).first?.info?.validator == "\"16228609-1795424839-10\" Sun, 22 Nov 2026 08:28:48 GMT")
    }
}

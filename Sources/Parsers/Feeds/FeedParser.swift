import Foundation

#if canImport(FoundationXML)
import FoundationXML
#endif

/// Reads a podcast feed, RSS 2.0 (with the iTunes namespace) or Atom, into episodes with audio
/// enclosures, newest first. A feed comes from any server, so its bytes pass `XMLInputGuard`
/// first, and a malformed document is an error, never a partial list passed off as whole.
package enum FeedParser {
    package static func parse(_ data: Data, base: URL) throws -> Feed {
        try parse([UInt8](data), base: base)
    }

    package static func parse(_ bytes: [UInt8], base: URL) throws -> Feed {
        let document = try XMLInputGuard.checked(bytes, kind: "a podcast feed", convertingLatin1: true)
        let reader = FeedXMLReader(base: base)
        let parser = XMLParser(data: document)
        parser.shouldProcessNamespaces = true
        parser.shouldResolveExternalEntities = false
        parser.delegate = reader
        guard parser.parse(), parser.parserError == nil else {
            throw ParseError.malformed("a podcast feed that is not well-formed XML")
        }
        guard let feed = reader.feed else {
            throw ParseError.unsupported("an XML document that is neither an RSS nor an Atom feed")
        }
        return feed
    }
}

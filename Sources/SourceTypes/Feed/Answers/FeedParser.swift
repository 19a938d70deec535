import FoundationEssentials
import Parsers

/// Reads a podcast feed, RSS 2.0 (with the iTunes namespace) or Atom, into episodes with audio
/// enclosures, newest first. A feed comes from any server and is often written by hand, so it
/// is read by `XMLReader` under the feed rules (`XMLRules.forFeeds`), and a malformed document
/// is an error, never a partial list passed off as whole.
package enum FeedParser {
    package static func parse(_ data: Data, base: URL) throws -> Feed {
        try parse([UInt8](data), base: base)
    }

    package static func parse(_ bytes: [UInt8], base: URL) throws -> Feed {
        if let kind = notXML(bytes) { throw ParseError.unsupported("\(kind) where a podcast feed was expected") }
        var reader = try XMLReader(bytes, rules: .forFeeds(kind: "a podcast feed"))
        var feed = FeedXMLReader(base: base)
        while let event = try reader.next() {
            switch event {
            case .start(let element):
                guard feed.start(element) else {
                    let root = element.name.qualified.prefix(40)
                    throw ParseError.unsupported("an XML document that is neither an RSS nor an Atom feed (its root is <\(root)>)")
                }
            case .text(let text): feed.characters(text)
            case .end(let name): feed.end(name)
            }
        }
        guard let result = feed.feed else { throw ParseError.malformed("a podcast feed that is not well-formed XML") }
        return result
    }

    /// What a document that is plainly no XML is (a web page or JSON where the feed was), so the
    /// error says it in words rather than as an XML error.
    private static func notXML(_ bytes: [UInt8]) -> String? {
        var start = bytes.prefix(1024)
        if start.starts(with: [0xEF, 0xBB, 0xBF]) { start = start.dropFirst(3) }
        if start.starts(with: [0xFE, 0xFF]) || start.starts(with: [0xFF, 0xFE]) { return nil }  // UTF-16: the guard says so
        start = start.drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        let head = String(decoding: start.prefix(64), as: UTF8.self).lowercased()
        if head.hasPrefix("<!doctype html") || head.hasPrefix("<html") { return "an HTML page" }
        if head.hasPrefix("{") || head.hasPrefix("[") { return "a JSON document" }
        if head.isEmpty { return "an empty document" }
        if !head.hasPrefix("<") { return "text that is not XML" }
        return nil
    }
}

import Base
import FoundationEssentials

/// Reads XSPF ("spiff", xspf.org) playlists: `<playlist><trackList><track>` with one or more
/// `<location>`s — alternatives of the same track, the first to try first — and `<title>`,
/// `<creator>`, `<duration>` (milliseconds). Locations are URI references, resolved against
/// the `xml:base` in force or else the list's own URL, under the rules every list keeps
/// (`PlaylistFileParser.entry`). Everything else — `<extension>`, `<meta>`, `<link>`, other
/// namespaces — is passed over. A document that is not well-formed is one `ParseError`.
package enum XSPFParser {
    package static let namespace = "http://xspf.org/ns/0/"

    /// Well-formed XML as other programs write it: a declared ISO-8859-1, a stylesheet
    /// instruction for browsers, a DOCTYPE, an extension's undeclared prefix.
    private static let rules: XMLRules = {
        var rules = XMLRules.forFeeds(kind: "an XSPF playlist")
        rules.instructions = true
        return rules
    }()

    /// `base` is the list's own URL.
    package static func parse(_ bytes: [UInt8], base: URL) throws -> [PlaylistItem] {
        var reader = try XMLReader(bytes, rules: rules)
        /// The open elements' local names; "" for one outside XSPF's namespace, whose content is
        /// not XSPF's to read.
        var path: [String] = []
        var bases: [URL] = []
        var text = ""
        var track: PlaylistItemDraft?
        var items: [PlaylistItem] = []
        while let event = try reader.next() {
            switch event {
            case .start(let element):
                let name = element.name
                let ours = name.namespace == namespace || name.namespace.isEmpty
                if path.isEmpty, !ours || name.local != "playlist" {
                    throw ParseError.unsupported("an XML document that is not an XSPF playlist (its root is <\(name.qualified.prefix(40))>)")
                }
                path.append(ours ? name.local : "")
                let inherited = bases.last ?? base
                bases.append(element["xml:base"].flatMap {
                    PlaylistFileParser.entry($0.trimmingWhitespace(), base: inherited, written: .uriReference)
                } ?? inherited)
                if path.count == 4 { text = "" }
                if path == ["playlist", "trackList", "track"] { track = PlaylistItemDraft() }
            case .text(let more):
                if track != nil, path.count == 4, text.utf8.count < TextDecoding.maxBytes { text += more }
            case .end:
                if var draft = track, path.count == 4 {
                    switch path[3] {
                    case "location": draft.add(text, base: bases[3])
                    case "title": draft.title = PlaylistItemDraft.field(text)
                    case "creator": draft.creator = PlaylistItemDraft.field(text)
                    case "duration": draft.duration = milliseconds(text)
                    default: break
                    }
                    track = draft
                    text = ""
                } else if path.count == 3, let draft = track {
                    if let item = draft.item, items.count < PlaylistFileParser.maxEntries { items.append(item) }
                    track = nil
                }
                path.removeLast()
                bases.removeLast()
            }
        }
        return items
    }

    /// `<duration>`: a whole number of milliseconds; anything else is unknown.
    private static func milliseconds(_ text: String) -> Double? {
        let digits = text.trimmingWhitespace()
        guard !digits.isEmpty, digits.count <= 15, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
              let value = Int(digits) else { return nil }
        return Double(value) / 1000
    }
}

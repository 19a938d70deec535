import Base
import FoundationEssentials

/// Reads Windows Media metafiles (ASX 3.0; `.asx`, `.wax`, `.wvx`): each `<entry>` is an item,
/// its `<ref href>`s the same clip or stream by other URLs — Windows Media Player's "URL
/// rollover", tried in order — with `<title>`, `<author>` and `<duration value="hh:mm:ss">`.
/// An `<entryref href>` (a further metafile, which Windows Media Player read in its place) is an
/// item whose URL answers a list; reading it, and bounding how deep, is the caller's. `<base>`
/// is not a base for refs (it only served script commands), so refs resolve against the list's
/// own URL, under the rules every list keeps (`PlaylistFileParser.entry`); `mms://` and other
/// schemes we cannot play are dropped. Names are matched in any case (`ASXText`).
package enum ASXParser {
    private static let rules: XMLRules = {
        var rules = XMLRules(kind: "an ASX playlist")
        rules.plainDoctype = true
        rules.undeclaredPrefixes = true
        rules.instructions = true
        return rules
    }()

    /// `base` is the list's own URL.
    package static func parse(_ bytes: [UInt8], base: URL) throws -> [PlaylistItem] {
        guard bytes.count <= XMLRules.maxBytes else {
            throw ParseError.unsupported("\(rules.kind) larger than \(XMLRules.maxBytes) bytes")
        }
        var reader = try XMLReader(try ASXText.xml(bytes, rules: rules), rules: rules)
        /// The open elements' names, lowercased by `ASXText`.
        var path: [String] = []
        var entry: PlaylistItemDraft?
        /// How many elements are open with the entry's own start counted: its children are one deeper.
        var entryDepth = 0
        var text = ""
        var items: [PlaylistItem] = []
        func add(_ item: PlaylistItem?) {
            if let item, items.count < PlaylistFileParser.maxEntries { items.append(item) }
        }
        while let event = try reader.next() {
            switch event {
            case .start(let element):
                let name = element.name.local
                if path.isEmpty, name != "asx" {
                    throw ParseError.unsupported("an XML document that is not an ASX playlist (its root is <\(element.name.qualified.prefix(40))>)")
                }
                path.append(name)
                if var draft = entry, path.count == entryDepth + 1 {
                    text = ""
                    if name == "ref", let href = element["href"] { draft.add(href, base: base) }
                    if name == "duration" { draft.duration = element["value"].flatMap(clock) }
                    entry = draft
                } else if entry == nil, name == "entry" {
                    entry = PlaylistItemDraft()
                    entryDepth = path.count
                } else if entry == nil, name == "entryref", let href = element["href"] {
                    var draft = PlaylistItemDraft()
                    draft.add(href, base: base)
                    add(draft.item)
                }
            case .text(let more):
                if entry != nil, path.count == entryDepth + 1, text.utf8.count < TextDecoding.maxBytes { text += more }
            case .end:
                if var draft = entry, path.count == entryDepth + 1 {
                    if path.last == "title" { draft.title = PlaylistItemDraft.field(text) }
                    if path.last == "author" { draft.creator = PlaylistItemDraft.field(text) }
                    entry = draft
                } else if let draft = entry, path.count == entryDepth {
                    add(draft.item)
                    entry = nil
                }
                path.removeLast()
            }
        }
        return items
    }

    /// `<duration value>`: `[[hh:]mm:]ss[.fraction]`; anything else is unknown.
    private static func clock(_ text: String) -> Double? {
        let parts = text.trimmingWhitespace().split(separator: ":", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count), let seconds = PlaylistFileParser.seconds(String(parts.last!)) else { return nil }
        var total = seconds
        for (place, part) in parts.dropLast().reversed().enumerated() {
            guard (1...9).contains(part.count), part.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int(part) else { return nil }
            total += Double(value) * (place == 0 ? 60 : 3600)
        }
        return total
    }
}

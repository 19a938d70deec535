import Foundation

#if canImport(FoundationXML)
import FoundationXML
#endif

/// The XMLParser delegate behind `FeedParser`: follows where it is in the document (channel or
/// item, RSS or Atom) and collects each item's fields, matching elements by namespace whatever
/// prefix the feed uses.
package final class FeedXMLReader: NSObject, XMLParserDelegate {
    private static let itunes = ["http://www.itunes.com/dtds/podcast-1.0.dtd", "https://www.itunes.com/dtds/podcast-1.0.dtd"]
    private static let atom = "http://www.w3.org/2005/Atom"
    private static let media = "http://search.yahoo.com/mrss/"
    private static let dublinCore = "http://purl.org/dc/elements/1.1/"
    private static let maxItems = 100_000
    private static let maxDepth = 256

    private enum Dialect { case rss, atom }

    /// What one item collects until its end tag.
    private struct Draft {
        var title: String?
        var itunesTitle: String?
        var enclosure: (url: URL, type: String?, length: Int64?)?
        var mediaContent: (url: URL, type: String?, length: Int64?)?
        var pubDate: Date?
        var updated: Date?
        var guid: String?
        var duration: Double?
        var image: URL?
    }

    private let base: URL
    private var dialect: Dialect?
    private var complete = false
    /// Open elements: namespace (empty for none) and local name.
    private var path: [(namespace: String, name: String)] = []
    private var text = ""
    private var draft: Draft?
    private var items: [(item: FeedItem, order: Int)] = []
    private var title: String?
    private var author: String?
    private var itunesAuthor: String?
    private var image: URL?

    init(base: URL) { self.base = base }

    /// The feed, once the document's root element has closed.
    var feed: Feed? {
        guard complete else { return nil }
        let sorted = items.sorted { a, b in
            switch (a.item.published, b.item.published) {
            case let (x?, y?) where x != y: return x > y
            case (_?, nil): return true
            case (nil, _?): return false
            default: return a.order < b.order
            }
        }
        let fallbackImage = image
        return Feed(title: title ?? base.host ?? base.absoluteString, author: itunesAuthor ?? author,
                    items: sorted.map { entry in
                        var item = entry.item
                        item.imageURL = item.imageURL ?? fallbackImage
                        return item
                    })
    }

    package func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]) {
        let namespace = namespaceURI ?? ""
        guard path.count < Self.maxDepth else {
            parser.abortParsing()
            return
        }
        if path.isEmpty {
            if name == "rss" && namespace.isEmpty {
                dialect = .rss
            } else if name == "feed" && namespace == Self.atom {
                dialect = .atom
            } else {
                parser.abortParsing()
                return
            }
        }
        path.append((namespace, name))
        text = ""
        let isItem = (dialect == .rss && name == "item" && namespace.isEmpty && inChannel(depth: 2))
            || (dialect == .atom && name == "entry" && namespace == Self.atom && path.count == 2)
        if isItem {
            draft = Draft()
            return
        }
        if draft != nil {
            startInItem(name, namespace: namespace, attributes: attributes)
        } else if Self.itunes.contains(namespace.lowercased()) && name == "image" && isChannelLevel {
            image = image ?? attributes["href"].flatMap { LinkResolver.url($0, relativeTo: base) }
        }
    }

    private func startInItem(_ name: String, namespace: String, attributes: [String: String]) {
        guard var current = draft else { return }
        defer { draft = current }
        let length = attributes["length"].flatMap { Int64($0.trimmingCharacters(in: .whitespaces)) }.flatMap { $0 > 0 ? $0 : nil }
        let type = attributes["type"].flatMap { TextDecoding.nonEmpty($0) }
        func link(_ key: String) -> URL? { attributes[key].flatMap { LinkResolver.url($0, relativeTo: base) } }
        let isRSSEnclosure = dialect == .rss && namespace.isEmpty && name == "enclosure"
        let isAtomEnclosure = namespace == Self.atom && name == "link" && attributes["rel"] == "enclosure"
        if isRSSEnclosure || isAtomEnclosure {
            if current.enclosure == nil, let url = link(isRSSEnclosure ? "url" : "href"), Self.isAudio(type: type, url: url) {
                current.enclosure = (url, type, length)
            }
        } else if namespace == Self.media && name == "content" {
            if current.mediaContent == nil, let url = link("url"),
               attributes["medium"] == "audio" || (type != nil && Self.isAudio(type: type, url: url)) {
                current.mediaContent = (url, type, attributes["fileSize"].flatMap { Int64($0) }.flatMap { $0 > 0 ? $0 : nil })
            }
        } else if Self.itunes.contains(namespace.lowercased()) && name == "image" {
            current.image = current.image ?? link("href")
        }
    }

    package func parser(_ parser: XMLParser, foundCharacters string: String) {
        if text.utf8.count < TextDecoding.maxBytes { text += string }
    }

    package func parser(_ parser: XMLParser, foundCDATA block: Data) {
        if text.utf8.count < TextDecoding.maxBytes { text += String(decoding: block.prefix(TextDecoding.maxBytes), as: UTF8.self) }
    }

    package func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        let namespace = namespaceURI ?? ""
        let value = TextDecoding.nonEmpty(text)
        text = ""
        defer {
            path.removeLast()
            if path.isEmpty { complete = true }
        }
        guard !path.isEmpty else { return }
        if draft != nil {
            if path.count == (dialect == .rss ? 3 : 2) {
                finishItem()
            } else if path.count == (dialect == .rss ? 4 : 3), let value {
                endInItem(name, namespace: namespace, value: value)
            }
            return
        }
        guard let value else { return }
        let itunes = Self.itunes.contains(namespace.lowercased())
        switch dialect {
        case .rss:
            if path.count == 3 && name == "title" && namespace.isEmpty { title = title ?? value }
            if path.count == 3 && itunes && name == "author" { itunesAuthor = itunesAuthor ?? value }
            if path.count == 3 && (name == "managingEditor" && namespace.isEmpty || name == "creator" && namespace == Self.dublinCore) {
                author = author ?? value
            }
            if path.count == 4 && name == "url" && namespace.isEmpty && path[2].name == "image" {
                image = image ?? LinkResolver.url(value, relativeTo: base)
            }
        case .atom:
            guard namespace == Self.atom else { return }
            if path.count == 2 && name == "title" { title = title ?? value }
            if path.count == 3 && name == "name" && path[1].name == "author" { author = author ?? value }
            if path.count == 2 && (name == "logo" || name == "icon") { image = image ?? LinkResolver.url(value, relativeTo: base) }
        case nil: break
        }
    }

    private func endInItem(_ name: String, namespace: String, value: String) {
        guard var current = draft else { return }
        defer { draft = current }
        let itunes = Self.itunes.contains(namespace.lowercased())
        switch (namespace, name) {
        case ("", "title") where dialect == .rss, (Self.atom, "title") where dialect == .atom:
            current.title = value
        case (_, "title") where itunes:
            current.itunesTitle = current.itunesTitle ?? value
        case ("", "pubDate"), (Self.atom, "published"), (Self.dublinCore, "date"):
            current.pubDate = current.pubDate ?? FeedDate.parse(value)
        case (Self.atom, "updated"):
            current.updated = current.updated ?? FeedDate.parse(value)
        case ("", "guid"), (Self.atom, "id"):
            current.guid = current.guid ?? value
        case (_, "duration") where itunes:
            current.duration = current.duration ?? FeedDuration.parse(value)
        default: break
        }
    }

    private func finishItem() {
        guard let done = draft else { return }
        draft = nil
        guard items.count < Self.maxItems, let enclosure = done.enclosure ?? done.mediaContent else { return }
        let title = done.title ?? done.itunesTitle ?? enclosure.url.deletingPathExtension().lastPathComponent
        let item = FeedItem(title: title, url: enclosure.url, mimeType: enclosure.type, length: enclosure.length,
                            published: done.pubDate ?? done.updated, guid: done.guid, duration: done.duration,
                            imageURL: done.image)
        items.append((item, items.count))
    }

    /// Whether the open elements are rss/channel (with `depth` elements open, counting the new one).
    private func inChannel(depth: Int) -> Bool {
        path.count == depth + 1 && path[1].name == "channel" && path[1].namespace.isEmpty
    }

    /// Whether the element just opened is a child of the channel or of the Atom feed.
    private var isChannelLevel: Bool {
        dialect == .rss ? path.count == 3 && path[1].name == "channel" : path.count == 2
    }

    /// Audio by its MIME type; without one (or a generic one), by the file name's extension.
    private static func isAudio(type: String?, url: URL) -> Bool {
        let lowered = type?.lowercased() ?? ""
        if lowered.hasPrefix("audio/") || lowered == "application/ogg" { return true }
        if !lowered.isEmpty && lowered != "application/octet-stream" && lowered != "binary/octet-stream" { return false }
        let known = ["mp3", "m4a", "aac", "ogg", "oga", "opus", "flac", "wav", "mp2", "m4b"]
        let ext = url.pathExtension.lowercased()
        return ext.isEmpty ? lowered.isEmpty : known.contains(ext)
    }
}

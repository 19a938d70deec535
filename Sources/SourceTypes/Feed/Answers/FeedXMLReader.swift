import Base
import FoundationEssentials
import Parsers

/// What `FeedParser` does with each event of the feed: follows where it is in the document
/// (channel or item, RSS or Atom, and the `xml:base` in force) and collects each item's fields,
/// matching elements by namespace whatever prefix the feed uses (`FeedNamespace`).
struct FeedXMLReader {
    private static let maxItems = 100_000

    private enum Dialect { case rss, atom }

    private let base: URL
    private var dialect: Dialect?
    private var complete = false
    /// Open elements: namespace (empty for none) and local name.
    private var path: [(namespace: String, name: String)] = []
    /// The base URL in force in each open element (`xml:base`, XML Base §4.2): links resolve against the last.
    private var bases: [URL] = []
    private var text = ""
    private var draft: FeedItemDraft?
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
        var seen: Set<String> = []
        return Feed(title: title ?? base.host ?? base.absoluteString, author: itunesAuthor ?? author,
                    items: sorted.compactMap { entry in
                        // A file two items link is one track, the newer item's.
                        guard seen.insert(entry.item.url.absoluteString).inserted else { return nil }
                        var item = entry.item
                        item.imageURL = item.imageURL ?? fallbackImage
                        return item
                    })
    }

    /// An element starts; false if it is a root that is neither RSS's nor Atom's.
    mutating func start(_ element: XMLStartTag) -> Bool {
        let name = element.name.local, namespace = FeedNamespace.of(element.name)
        if path.isEmpty {
            if name == "rss" && namespace.isEmpty {
                dialect = .rss
            } else if name == "feed" && namespace == FeedNamespace.atom {
                dialect = .atom
            } else {
                return false
            }
        }
        path.append((namespace, name))
        let inherited = bases.last ?? base
        bases.append(element["xml:base"].flatMap { LinkResolver.url($0, relativeTo: inherited) } ?? inherited)
        text = ""
        let isItem = (dialect == .rss && name == "item" && namespace.isEmpty && inChannel(depth: 2))
            || (dialect == .atom && name == "entry" && namespace == FeedNamespace.atom && path.count == 2)
        if isItem {
            draft = FeedItemDraft()
        } else if draft != nil {
            startInItem(name, namespace: namespace, element)
        } else if namespace == FeedNamespace.itunes && name == "image" && isChannelLevel {
            image = image ?? link(element["href"])
        }
        return true
    }

    /// An attribute's URL, resolved against the base in force.
    private func link(_ text: String?) -> URL? {
        text.flatMap { LinkResolver.url($0, relativeTo: bases.last ?? base) }
    }

    private mutating func startInItem(_ name: String, namespace: String, _ element: XMLStartTag) {
        guard var current = draft else { return }
        draft = nil  // the one copy: changing a second would copy every enclosure per element
        defer { draft = current }
        let length = element["length"].flatMap { Int64($0.trimmingWhitespace()) }.flatMap { $0 > 0 ? $0 : nil }
        let type = element["type"].flatMap { TextDecoding.nonEmpty($0) }
        let isRSSEnclosure = dialect == .rss && namespace.isEmpty && name == "enclosure"
        let isAtomEnclosure = namespace == FeedNamespace.atom && name == "link"
            && element["rel"]?.trimmingWhitespace().lowercased() == "enclosure"
        if isRSSEnclosure || isAtomEnclosure {
            if let url = link(element[isRSSEnclosure ? "url" : "href"]), Self.isAudio(type: type, url: url) {
                current.add(.init(url: url, type: type, length: length))
            }
        } else if namespace == FeedNamespace.media && name == "content" {
            // Media RSS: `medium` says what it is when given; else the type, else the file name.
            let medium = element["medium"]?.trimmingWhitespace().lowercased()
            if let url = link(element["url"]), medium == "audio" || (medium == nil && Self.isAudio(type: type, url: url, needsHint: true)) {
                let size = element["fileSize"].flatMap { Int64($0.trimmingWhitespace()) }.flatMap { $0 > 0 ? $0 : nil }
                current.add(.init(url: url, type: type, length: size))
            }
        } else if namespace == FeedNamespace.itunes && name == "image" {
            current.image = current.image ?? link(element["href"])
        } else if namespace == FeedNamespace.podcast && name == "chapters", type?.lowercased().contains("json") ?? true {
            // Podcasting 2.0 (podcastindex.org/namespace/1.0, "chapters"): the JSON format only.
            current.chapters = current.chapters ?? link(element["url"])
        }
    }

    mutating func characters(_ string: String) {
        if text.utf8.count < TextDecoding.maxBytes { text += string }
    }

    mutating func end(_ element: XMLName) {
        let name = element.local, namespace = FeedNamespace.of(element)
        let value = TextDecoding.nonEmpty(text)
        text = ""
        defer {
            path.removeLast()
            bases.removeLast()
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
        let itunes = namespace == FeedNamespace.itunes
        switch dialect {
        case .rss:
            if path.count == 3 && name == "title" && namespace.isEmpty { title = title ?? FeedText.plain(value) }
            if path.count == 3 && itunes && name == "author" { itunesAuthor = itunesAuthor ?? FeedText.plain(value) }
            if path.count == 3 && (name == "managingEditor" && namespace.isEmpty || name == "creator" && namespace == FeedNamespace.dublinCore) {
                author = author ?? FeedText.plain(value)
            }
            if path.count == 4 && name == "url" && namespace.isEmpty && path[2].name == "image" {
                image = image ?? link(value)
            }
        case .atom:
            guard namespace == FeedNamespace.atom else { return }
            if path.count == 2 && name == "title" { title = title ?? FeedText.plain(value) }
            if path.count == 3 && name == "name" && path[1].name == "author" { author = author ?? FeedText.plain(value) }
            if path.count == 2 && (name == "logo" || name == "icon") { image = image ?? link(value) }
        case nil: break
        }
    }

    private mutating func endInItem(_ name: String, namespace: String, value: String) {
        guard var current = draft else { return }
        draft = nil  // the one copy: changing a second would copy every enclosure per element
        defer { draft = current }
        let itunes = namespace == FeedNamespace.itunes
        switch (namespace, name) {
        case ("", "title") where dialect == .rss, (FeedNamespace.atom, "title") where dialect == .atom:
            current.title = current.title ?? FeedText.plain(value)
        case (_, "title") where itunes:
            current.itunesTitle = current.itunesTitle ?? FeedText.plain(value)
        case ("", "pubDate"), (FeedNamespace.atom, "published"), (FeedNamespace.dublinCore, "date"):
            current.pubDate = current.pubDate ?? InternetDate.parse(value)
        case (FeedNamespace.atom, "updated"):
            current.updated = current.updated ?? InternetDate.parse(value)
        case ("", "guid"), (FeedNamespace.atom, "id"):
            current.guid = current.guid ?? value
        case (_, "duration") where itunes:
            current.duration = current.duration ?? ClockTime.seconds(value, plainSeconds: true)
        default: break
        }
    }

    private mutating func finishItem() {
        guard let done = draft else { return }
        draft = nil
        for item in done.items where items.count < Self.maxItems {
            items.append((item, items.count))
        }
    }

    /// Whether the open elements are rss/channel (with `depth` elements open, counting the new one).
    private func inChannel(depth: Int) -> Bool {
        path.count == depth + 1 && path[1].name == "channel" && path[1].namespace.isEmpty
    }

    /// Whether the element just opened is a child of the channel or of the Atom feed.
    private var isChannelLevel: Bool {
        dialect == .rss ? path.count == 3 && path[1].name == "channel" : path.count == 2
    }

    /// Audio by its MIME type; without one (or a generic one), by the file name's extension. A
    /// name without an extension counts for an `enclosure` without a type (RSS 2.0 requires the
    /// type; a feed that leaves it out means its one file), not for `media:content`, which
    /// also carries pictures and video (`needsHint`).
    private static func isAudio(type: String?, url: URL, needsHint: Bool = false) -> Bool {
        let lowered = type?.lowercased() ?? ""
        if lowered.hasPrefix("audio/") || lowered == "application/ogg" { return true }
        if !lowered.isEmpty && lowered != "application/octet-stream" && lowered != "binary/octet-stream" { return false }
        let known = ["mp3", "m4a", "aac", "ogg", "oga", "opus", "flac", "wav", "mp2", "m4b"]
        let ext = url.pathExtension.lowercased()
        return ext.isEmpty ? lowered.isEmpty && !needsHint : known.contains(ext)
    }
}

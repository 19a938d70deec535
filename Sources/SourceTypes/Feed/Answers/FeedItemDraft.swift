import FoundationEssentials

/// What one RSS item or Atom entry collects until its end tag. Every audio file it links is a
/// track (an `enclosure`, `media:content` alone or in a `media:group`, an Atom enclosure link),
/// in document order and once per URL: the same file as `enclosure` and `media:content` is one.
struct FeedItemDraft {
    struct Enclosure {
        var url: URL
        var type: String?
        var length: Int64?
    }

    var title: String?
    var itunesTitle: String?
    var pubDate: Date?
    var updated: Date?
    var guid: String?
    var duration: Double?
    var image: URL?
    /// `<podcast:chapters>`: the JSON chapters file of the item's (first) file.
    var chapters: URL?
    private(set) var enclosures: [Enclosure] = []
    /// Where each URL is in `enclosures`: a search through them per mention made a feed whose
    /// item lists 20,000 files take 20 s.
    private var positions: [String: Int] = [:]

    /// Adds a file, or fills what an earlier mention of the same URL left out.
    mutating func add(_ enclosure: Enclosure) {
        let key = enclosure.url.absoluteString
        guard let index = positions[key] else {
            positions[key] = enclosures.count
            enclosures.append(enclosure)
            return
        }
        enclosures[index].type = enclosures[index].type ?? enclosure.type
        enclosures[index].length = enclosures[index].length ?? enclosure.length
    }

    /// The item's tracks: the first under the item's title, further ones numbered after it; an
    /// item without a title names each from its file.
    var items: [FeedItem] {
        let title = self.title ?? itunesTitle
        return enclosures.enumerated().map { index, enclosure in
            let name = title.map { index == 0 ? $0 : "\($0) (\(index + 1))" } ?? Self.name(of: enclosure.url)
            return FeedItem(title: name, url: enclosure.url, mimeType: enclosure.type, length: enclosure.length,
                            published: pubDate ?? updated, guid: index == 0 ? guid : nil, duration: index == 0 ? duration : nil,
                            imageURL: image, chaptersURL: index == 0 ? chapters : nil)
        }
    }

    /// A file's name without its extension, else the host.
    private static func name(of url: URL) -> String {
        let file = url.deletingPathExtension().lastPathComponent
        return file.isEmpty || file == "/" ? url.host ?? url.absoluteString : file
    }
}

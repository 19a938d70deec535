import Parsers

/// The namespaces a feed's elements are matched by. Feeds in the wild use the common prefixes
/// (`itunes:`, `media:` …) without declaring them, which XML calls an error and podcast apps
/// shrug off: such a prefix is taken for its usual namespace, and any other undeclared prefix
/// for a namespace of its own, so `foo:title` never passes for the item's `title`.
package enum FeedNamespace {
    static let itunes = "http://www.itunes.com/dtds/podcast-1.0.dtd"
    static let atom = "http://www.w3.org/2005/Atom"
    static let media = "http://search.yahoo.com/mrss/"
    static let dublinCore = "http://purl.org/dc/elements/1.1/"
    static let content = "http://purl.org/rss/1.0/modules/content/"
    static let podcast = "https://podcastindex.org/namespace/1.0"
    static let googlePlay = "http://www.google.com/schemas/play-podcasts/1.0"
    /// The prefixes feeds use without declaring them, and what they stand for.
    private static let usual: [String: String] = [
        "itunes": itunes, "media": media, "content": content, "podcast": podcast, "atom": atom,
        "googleplay": googlePlay, "dc": dublinCore,
    ]

    /// The element's namespace: the declared one, else the usual one of its prefix.
    static func of(_ name: XMLName) -> String {
        if !name.namespace.isEmpty { return canonical(name.namespace) }
        guard let prefix = name.prefix?.lowercased() else { return "" }
        return usual[prefix] ?? "undeclared:\(prefix)"
    }

    /// Declared namespaces as feeds misspell them: the iTunes one in https or another case, Media
    /// RSS without its trailing slash or at its older Yahoo address (the spec notes the confusion).
    private static func canonical(_ uri: String) -> String {
        switch uri.lowercased() {
        case "http://www.itunes.com/dtds/podcast-1.0.dtd", "https://www.itunes.com/dtds/podcast-1.0.dtd": itunes
        case "http://search.yahoo.com/mrss", "http://search.yahoo.com/mrss/", "http://video.search.yahoo.com/mrss",
             "http://video.search.yahoo.com/mrss/", "https://search.yahoo.com/mrss/": media
        default: uri
        }
    }
}

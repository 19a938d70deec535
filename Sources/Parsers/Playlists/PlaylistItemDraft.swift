import Base
import FoundationEssentials

/// An entry of an XML list (an XSPF track, an ASX entry) as its elements arrive: every URL it
/// names, in order — the first to play, the rest alternatives — and its title, creator and
/// duration. URLs go through `PlaylistFileParser.entry`, so XML lists keep the rules M3U and PLS
/// keep.
struct PlaylistItemDraft {
    /// URLs kept for one entry: more is no list anyone wrote to be played.
    static let maxURLs = 32

    private(set) var urls: [URL] = []
    var title: String?
    var creator: String?
    var duration: Double?

    /// Adds a URI reference, resolved against `base`; dropped where the rules refuse it, when it
    /// repeats one already there, or past `maxURLs`.
    mutating func add(_ reference: String, base: URL) {
        guard urls.count < Self.maxURLs,
              let url = PlaylistFileParser.entry(reference.trimmingWhitespace(), base: base, written: .uriReference),
              !urls.contains(url) else { return }
        urls.append(url)
    }

    /// The item, nil when no URL of it may be played.
    var item: PlaylistItem? {
        urls.first.map { PlaylistItem(url: $0, alternatives: Array(urls.dropFirst()), title: title, creator: creator, duration: duration) }
    }

    /// An element's text as a field: trimmed, cut to `TextDecoding.maxBytes`, nil when empty.
    static func field(_ text: String) -> String? {
        TextDecoding.nonEmpty(String(decoding: text.utf8.prefix(TextDecoding.maxBytes), as: UTF8.self))
    }
}

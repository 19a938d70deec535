import FoundationEssentials
import Model

/// Podcasting 2.0's JSON chapters file, which a feed names with `<podcast:chapters>`
/// (github.com/Podcastindex-org/podcast-namespace, chapters/jsonChapters.md): `{"version":
/// "1.2.0", "chapters": [{"startTime": 94, "title": "…"}]}`, each chapter's `startTime` in seconds
/// (a float). A chapter with `"toc": false` is, by that page, "a silent chapter marker for the
/// purpose of meta-data only", never shown nor jumped to: it is left out.
package enum PodcastChaptersJSON {
    /// The largest file read: thousands of chapters fit in far less.
    package static let maxBytes = 1 << 20

    private struct Document: Decodable {
        var chapters: [Entry]
    }

    private struct Entry: Decodable {
        var startTime: Double
        var title: String?
        var toc: Bool?
        var img: String?
    }

    /// The chapters of a file, unordered (`[Chapter].ordered` makes them fit to use), each `img`
    /// resolved against `base` (the file's own URL); throws a `ParseError` for anything that is
    /// not such a file.
    package static func parse(_ bytes: [UInt8], base: URL? = nil) throws -> [Chapter] {
        let document = try JSONAnswer.decode(Document.self, bytes, expected: "a Podcasting 2.0 chapters file")
        return document.chapters.filter { $0.toc != false }.map { entry in
            let image = entry.img.flatMap { URL(string: $0, relativeTo: base)?.absoluteURL }
            return Chapter(start: entry.startTime, title: entry.title ?? "",
                           art: image.flatMap { ["http", "https"].contains($0.scheme?.lowercased() ?? "") ? .link($0.absoluteString) : nil })
        }
    }
}

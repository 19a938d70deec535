import FoundationEssentials
import Model

/// Links a remote document names — a feed's episodes, a playlist's or station list's entries, an
/// HLS playlist's variants and segments — placed so that the document cannot spend the user's
/// trust: a feed or playlist is written by whoever runs its server, and it must not make the
/// daemon send another source's credentials (a WebDAV source's `Authorization` to a URL below its
/// root) or reach this machine and its network (`http://127.0.0.1:8080/admin/delete`,
/// `http://169.254.169.254/`). A link is the document's own only on the document's own source
/// (its root, fetched as that source's) or on the server the document came from (its origin,
/// without credentials); anything else is a link of the document (`TrackLocation.namedBy`):
/// fetched without credentials, and refused on a loopback, private or link-local address.
extension SourceSet {
    /// The location of `url`, named by the document at `document`. A file of this machine (a
    /// local playlist) names what it likes, as the user does.
    package func location(ofLink url: URL, in document: TrackLocation) -> TrackLocation {
        let placed = location(of: url)
        if document.isFile && document.namedBy == nil { return placed }
        if let source = placed.source, source == document.source { return placed.named(by: document.namedBy) }
        let plain = TrackLocation(url: url)
        if placed.source == nil, let own = document.url.flatMap(URLOrigin.init), URLOrigin(url) == own, !url.isFileURL {
            return plain.named(by: document.namedBy)
        }
        return plain.named(by: document.namedBy ?? document.source ?? "")
    }

    /// A link's text as the library keeps it, read back: named by the document whose location's
    /// text is `document` (a playlist file's, a feed's).
    package func location(of text: String, namedBy document: String) -> TrackLocation {
        guard let url = URL(string: text), ["http", "https", "file"].contains(url.scheme?.lowercased() ?? "") else {
            return location(of: text)
        }
        return location(ofLink: url, in: location(of: document))
    }

    /// A library track's location, `text`, recorded by a scan of `source`: a track of another
    /// source, or of none, that a document of `source` named (a feed's episode on another
    /// server) is a link of that document still, however it is queued.
    package func location(of text: String, recordedBy source: String) -> TrackLocation {
        let placed = location(of: text)
        guard placed.source != source, let root = roots.first(where: { $0.source == source }) else { return placed }
        return location(of: text, namedBy: root.location.uri)
    }
}

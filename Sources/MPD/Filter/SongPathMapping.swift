import Model

/// MPD's song and directory URIs to library locations (see `SongPaths`): what a filter's `file`
/// and `base` name.
package protocol SongPathMapping: Sendable {
    /// The location of the song at `path`, or nil when `path` is in no source (a URL is
    /// compared as it is).
    func location(ofPath path: String) -> String?
    /// The location of the directory at `path` ("" the root of all), or nil when there is none.
    func folderLocation(ofPath path: String) -> String?
}

extension SongPathMapping {
    /// A piece of a song's path as the song's location spells it — each name percent-encoded as
    /// a scan spells a file's name (`CanonicalURL.segment(naming:)`) — for `search file` and
    /// `file contains`, which look for it in the locations. (It may also be found in a source's
    /// root, which the path does not show.)
    func locationSpelling(ofPart part: String) -> String {
        part.split(separator: "/", omittingEmptySubsequences: false).map { CanonicalURL.segment(naming: String($0)) }.joined(separator: "/")
    }
}

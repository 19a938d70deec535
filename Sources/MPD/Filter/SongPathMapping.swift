/// MPD's song and directory URIs to library locations (see `SongPaths`): what a filter's `file`
/// and `base` name.
package protocol SongPathMapping: Sendable {
    /// The location of the song at `path`, or nil when `path` is in no source (a URL is
    /// compared as it is).
    func location(ofPath path: String) -> String?
    /// The location of the directory at `path` ("" the root of all), or nil when there is none.
    func folderLocation(ofPath path: String) -> String?
}

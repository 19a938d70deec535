import Base
import Library
import Loader
import Model

/// MPD's song and directory URIs, mapped to and from library locations.
///
/// MPD names a song by its path relative to the music directory. Here each configured source is
/// a top-level directory named as the source, and below it the path is the track's key in that
/// source (`TrackLocation.key`: the path below the source's root): `music/Artist/Album/01 a.mp3`
/// is the track of source `music` at `Artist/Album/01 a.mp3` below its root, whatever the root
/// is (`file:///srv/music/`, `https://dav.example/remote.php/music/`, an S3 bucket). In a source
/// whose path segments are file names (local, WebDAV) the path is the decoded names, as MPD shows
/// them; in another (an HTTP server) the key as it is, percent-encoded. A location in no source —
/// an http(s) URL a client added — is its URL, as MPD shows a stream.
package struct SongPaths: SongPathMapping {
    package let sources: SourceSet
    /// The folders placed so far by `path(of:)` of a track, for this one command (a `SongPaths`
    /// is made for each).
    private let folders = Locked<[String: FolderPath]>([:])

    /// A folder's MPD path, and how its files' names are shown below it.
    private struct FolderPath {
        let path: String
        /// The file's segment decoded (a source whose segments are names, or a `cloudplayer://`
        /// one whose key is the provider's text), or as it is (a path that is only a path).
        let decodes: Bool
    }

    package init(sources: SourceSet) {
        self.sources = sources
    }

    /// The MPD URI of a library track. A scan records a track's `url` as its `folder` and one
    /// encoded name more, so the folder is placed among the sources once (the costly part: its
    /// URL parsed and spelled) and each of its songs only adds its name — `listallinfo` of
    /// 100,000 songs spent three quarters of its time placing each song's URL anew.
    package func path(of track: LibraryTrack) -> String {
        let url = track.url, folder = track.folder
        guard folder.hasSuffix("/"), url.utf8.count > folder.utf8.count, url.utf8.starts(with: folder.utf8) else { return path(of: url) }
        let name = Substring(url.utf8.dropFirst(folder.utf8.count))
        guard !name.contains(where: { $0 == "/" || $0 == "?" || $0 == "#" }) else { return path(of: url) }
        let placed = folders.withLock { $0[folder] } ?? place(folder)
        guard let placed else { return path(of: url) }
        return placed.path + "/" + (placed.decodes ? PercentEncoding.decoded(name) ?? String(name) : String(name))
    }

    /// Places a folder and remembers it; nil (not remembered) for one outside every source.
    private func place(_ folder: String) -> FolderPath? {
        let location = sources.location(of: folder)
        guard let name = location.source, let source = sources.source(named: name) else { return nil }
        let placed = FolderPath(path: path(of: location, in: source),
                                decodes: source.pathsAreNames || TrackLocation.sourceAndKey(in: location.uri) != nil)
        folders.withLock { folders in
            if folders.count >= 10_000 { folders.removeAll(keepingCapacity: true) }
            folders[folder] = placed
        }
        return placed
    }

    /// The MPD URI of a library location (a track's `url`, or a folder's location).
    package func path(of uri: String) -> String {
        let location = sources.location(of: uri)
        guard let name = location.source, let source = sources.source(named: name) else { return location.uri }
        return path(of: location, in: source)
    }

    /// The MPD URI of a location placed in `source` already.
    private func path(of location: TrackLocation, in source: any SourceType) -> String {
        let name = source.name
        var key = Substring(location.key)
        while key.hasSuffix("/") { key = key.dropLast() }
        guard !key.isEmpty else { return name }
        let shown = source.pathsAreNames
            ? key.split(separator: "/", omittingEmptySubsequences: false).map(TrackLocation.name(ofKeySegment:)).joined(separator: "/")
            : String(key)
        return name + "/" + shown
    }

    package func location(ofPath path: String) -> String? {
        placed(path)?.uri
    }

    /// A directory's location, ending in `/` (as the scan records folders); a source's root for
    /// its name alone.
    package func folderLocation(ofPath path: String) -> String? {
        guard let location = placed(path) else { return nil }
        return location.uri.hasSuffix("/") ? location.uri : location.uri + "/"
    }

    /// The top-level directories, in the config's order (those the library has tracks under are shown).
    package var sourceNames: [String] {
        sources.all.map(\.name)
    }

    private func placed(_ path: String) -> TrackLocation? {
        var trimmed = Substring(path)
        while trimmed.hasPrefix("/") { trimmed = trimmed.dropFirst() }
        while trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        let segments = trimmed.split(separator: "/", omittingEmptySubsequences: false)
        guard let name = segments.first.map(String.init), let source = sources.source(named: name) else { return nil }
        let rest = segments.dropFirst()
        guard !rest.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." }) else { return nil }
        let key = source.pathsAreNames ? rest.map { TrackLocation.keySegment(naming: String($0)) }.joined(separator: "/") : rest.joined(separator: "/")
        if key.isEmpty {
            return SourceRoot(source)?.location ?? TrackLocation(source: name, key: "")
        }
        return sources.location(of: TrackLocation(source: name, key: key).uri)
    }
}

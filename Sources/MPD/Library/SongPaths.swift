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
    /// The folders placed so far by `path(of:)` of a track (kept while the sources are the same:
    /// `MPDLibraryDatabase.paths`).
    private let folders = Locked(PlacedFolders())
    /// The locations of folders placed by `location(ofPath:)`, by MPD path (at most 10,000).
    private let folderLocations = Locked<[String: String]>([:])

    /// A folder's MPD path, and how its files' names are shown below it.
    private struct FolderPath {
        let path: String
        /// The file's segment decoded (a source whose segments are names, or a `cloudplayer://`
        /// one whose key is the provider's text), or as it is (a path that is only a path).
        let decodes: Bool
    }

    /// The folders placed, at most 10,000, and the last one asked for: a listing's songs come
    /// folder by folder, and that one is told by comparing its location, not by hashing it.
    private struct PlacedFolders {
        private var byFolder: [String: FolderPath] = [:]
        private var last: (folder: String, placed: FolderPath)?

        mutating func placed(_ folder: String) -> FolderPath? {
            if let last, last.folder == folder { return last.placed }
            guard let placed = byFolder[folder] else { return nil }
            last = (folder, placed)
            return placed
        }

        mutating func add(_ placed: FolderPath, for folder: String) {
            if byFolder.count >= 10_000 { byFolder.removeAll(keepingCapacity: true) }
            byFolder[folder] = placed
            last = (folder, placed)
        }
    }

    package init(sources: SourceSet) {
        self.sources = sources
    }

    /// Whether `other` gives every song and folder the path `sources` gives it: the same
    /// sources, rooted and named alike.
    func maps(like other: SourceSet) -> Bool {
        sources.placesAlike(other) && sources.all.map(\.name) == other.all.map(\.name)
            && sources.all.map(\.pathsAreNames) == other.all.map(\.pathsAreNames)
    }

    /// The MPD URI of a library track. A scan records a track's `url` as its `folder` and one
    /// encoded name more, so the folder is placed among the sources once (the costly part: its
    /// URL parsed and spelled) and each of its songs only adds its name — `listallinfo` of
    /// 100,000 songs spent three quarters of its time placing each song's URL anew.
    package func path(of track: LibraryTrack) -> String {
        let url = track.url, folder = track.folder
        guard folder.hasSuffix("/"), url.utf8.count > folder.utf8.count, url.hasBytePrefix(folder) else { return path(of: url) }
        let name = Substring(url.utf8.dropFirst(folder.utf8.count))
        guard !name.utf8.contains(where: { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }) else {
            return path(of: url)
        }
        let placed = folders.withLock { $0.placed(folder) } ?? place(folder)
        guard let placed else { return path(of: url) }
        return placed.path + "/" + (placed.decodes ? PercentEncoding.decoded(name) ?? String(name) : String(name))
    }

    /// Places a folder and remembers it; nil (not remembered) for one outside every source.
    private func place(_ folder: String) -> FolderPath? {
        let location = sources.location(of: folder)
        guard let name = location.source, let source = sources.source(named: name) else { return nil }
        let placed = FolderPath(path: path(of: location, in: source),
                                decodes: source.pathsAreNames || TrackLocation.sourceAndKey(in: location.uri) != nil)
        folders.withLock { $0.add(placed, for: folder) }
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
        if let fast = locationFromFolder(ofPath: path) { return fast }
        return placed(path)?.uri
    }

    /// A song's location from its folder's, in a source whose path segments are names and that
    /// has URLs (local, WebDAV): the folder placed once (its URL parsed and spelled), each of its
    /// songs then its name spelled as the folder's segments are (`CanonicalURL.segment(naming:)`)
    /// — a command list adding 10,000 songs of 100 folders placed 10,000 URLs. Nil where that does
    /// not hold: the path is then placed whole. (SongPathsTests: the same as placing it whole.)
    private func locationFromFolder(ofPath path: String) -> String? {
        var trimmed = Substring(path)
        while trimmed.hasPrefix("/") { trimmed = trimmed.dropFirst() }
        guard let slash = trimmed.lastIndex(of: "/") else { return nil }
        let name = trimmed[trimmed.index(after: slash)...], folderPath = trimmed[..<slash]
        guard !name.isEmpty, name != ".", name != "..", let sourceName = folderPath.split(separator: "/").first,
              let source = sources.source(named: String(sourceName)), source.pathsAreNames, SourceRoot(source) != nil else { return nil }
        let key = String(folderPath)
        let folder: String
        if let known = folderLocations.withLock({ $0[key] }) {
            folder = known
        } else {
            guard let placed = placed(key)?.uri else { return nil }
            folder = placed.hasSuffix("/") ? String(placed.dropLast()) : placed
            folderLocations.withLock { known in
                if known.count >= 10_000 { known.removeAll(keepingCapacity: true) }
                known[key] = folder
            }
        }
        return folder + "/" + CanonicalURL.segment(naming: String(name))
    }

    /// A directory's location, ending in `/` (as the scan records folders); a source's root for
    /// its name alone.
    package func folderLocation(ofPath path: String) -> String? {
        guard let location = placed(path) else { return nil }
        return location.uri.hasSuffix("/") ? location.uri : location.uri + "/"
    }

    /// The top-level directories, in the config's order (those the library has tracks under are shown).
    /// The sources' names as MPD sorts a folder's directories (ICU's root collation: letters
    /// before case, so `books` < `music` < `Radio`), not in the config's order.
    package var sourceNames: [String] {
        sources.all.map(\.name).sorted { ($0.lowercased(), $0) < ($1.lowercased(), $1) }
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

import Cache
import Config
import Foundation
import Loader
import Logging
import Model
import Parsers

/// Walks one source and records what it finds: a WebDAV server folder by folder (PROPFIND
/// `Depth: 1`), a local folder, or a podcast feed. Tags come from ranged reads of each new or
/// changed file's head and tail through the loader, so those bytes stay in the cache for its
/// first play; unchanged files (same size and validator) are not read again.
package struct LibraryScanner {
    /// At most this many folders per source: a server that lists itself endlessly ends here.
    static let folderLimit = 200_000
    /// Tag reads in flight at once: a scan waits on round trips, not bandwidth.
    static let parallelReads = 8
    static let audioExtensions: Set<String> = ["mp3", "opus", "ogg", "oga"]
    static let playlistExtensions: Set<String> = ["m3u", "m3u8", "pls"]
    /// The head a scan fetches of each new file: its tags, and about 4 s of 128 kbit/s audio so
    /// the first play starts from the cache. With the tail (128 B for MP3, 8 KiB for Opus) a
    /// track costs at most about 68 KiB.
    static let headBytes: Int64 = 60 << 10

    let source: SourceConfiguration
    let loader: LoaderActor
    let logger = Logger(label: "cloudplayerd.library")

    func scan(into library: isolated LibraryActor) async -> ScanReport {
        var report = ScanReport(source: source.name)
        let store: LibraryStore
        let mark: Int64
        do {
            store = try library.database
            mark = try store.beginScan(of: source.name)
        } catch {
            report.failed = true
            report.problems.append("\(error)")
            return report
        }
        var complete = true
        switch source.kind {
        case .webdav, .local:
            complete = await walk(into: library, store: store, mark: mark, report: &report)
        case .feed:
            complete = await readFeed(into: library, store: store, mark: mark, report: &report)
        case .http:
            report.failed = true
            report.problems.append("\(source.name): an http source cannot list its files; make it webdav, local or feed to scan it")
            return report
        }
        do {
            report.gone = try store.finishScan(of: source.name, mark: mark, folders: report.folders, complete: complete,
                                               problems: report.problems)
        } catch {
            report.problems.append("\(error)")
        }
        if !complete && !report.failed {
            report.problems.append("\(source.name): some folders could not be listed, so no track was marked gone")
        }
        return report
    }

    // MARK: Folders

    /// Breadth first from the source's root; returns whether every folder was listed.
    private func walk(into library: isolated LibraryActor, store: LibraryStore, mark: Int64, report: inout ScanReport) async -> Bool {
        var folders = [LibraryLocation.canonical(source.url)]
        var seen: Set<String> = [Self.key(folders[0])]
        var complete = true
        var playlistFiles: [(URL, DAVEntry)] = []
        while !folders.isEmpty, report.folders < Self.folderLimit {
            let folder = folders.removeFirst()
            let entries: [DAVEntry]
            do {
                entries = try await list(folder, using: loader)
            } catch {
                complete = false
                if report.folders == 0 {
                    report.failed = true
                    report.problems.append("\(source.name): cannot list the source: \(error)")
                    return false
                }
                report.problems.append("\(source.name): cannot list \(Self.display(folder, under: source.url)): \(error)")
                continue
            }
            report.folders += 1
            var files: [(URL, DAVEntry)] = []
            for entry in entries {
                guard let url = resolve(entry.href, in: folder) else {
                    report.problems.append("\(source.name): ignored a link outside the source in \(Self.display(folder, under: source.url))")
                    continue
                }
                if entry.isFolder {
                    if seen.insert(Self.key(url)).inserted { folders.append(url) }
                } else if Self.audioExtensions.contains(url.pathExtension.lowercased()) {
                    files.append((url, entry))
                } else if Self.playlistExtensions.contains(url.pathExtension.lowercased()) {
                    playlistFiles.append((url, entry))
                }
            }
            if !(await record(files, in: folder, into: library, store: store, mark: mark, report: &report)) { complete = false }
            library.scanProgress?.foldersDone = report.folders
            library.scanProgress?.foldersFound = report.folders + folders.count
        }
        if !folders.isEmpty {
            complete = false
            report.problems.append("\(source.name): stopped after \(Self.folderLimit) folders")
        }
        for (url, entry) in playlistFiles {
            // A playlist file that could not be read this time is not gone.
            if !(await readPlaylistFile(url, entry, into: library, store: store, mark: mark, report: &report)) { complete = false }
        }
        return complete
    }

    /// A folder's entries: PROPFIND on a server, the directory on this machine.
    private func list(_ folder: URL, using loader: LoaderActor) async throws -> [DAVEntry] {
        guard folder.isFileURL else { return try await loader.list(folder) }
        return try LocalFolder.list(folder)
    }

    /// Reads the tags of new and changed files (a few at a time) and records the folder;
    /// false if it could not be recorded (then nothing may be marked gone).
    private func record(_ files: [(URL, DAVEntry)], in folder: URL, into library: isolated LibraryActor,
                        store: LibraryStore, mark: Int64, report: inout ScanReport) async -> Bool {
        guard !files.isEmpty else { return true }
        let folderKey = folder.absoluteString
        let known = (try? store.tracks(inFolder: folderKey)) ?? [:]
        var tracks: [LibraryTrack] = []
        var unchanged: [Int64] = []
        var toRead: [(URL, DAVEntry)] = []
        for (url, entry) in files {
            if let old = known[url.absoluteString], let id = old.id, old.size == entry.length,
               old.validator == entry.info?.validator, old.problem == nil {
                unchanged.append(id)
            } else {
                toRead.append((url, entry))
            }
        }
        let loader = loader
        let name = source.name
        await withTaskGroup(of: (LibraryTrack, Int64).self) { group in
            var pending = toRead[...]
            func startNext() {
                guard let (url, entry) = pending.popFirst() else { return }
                group.addTask { await Self.readTrack(url, entry, source: name, folder: folderKey, loader: loader) }
            }
            for _ in 0..<Self.parallelReads { startNext() }
            for await (track, fetched) in group {
                tracks.append(track)
                report.tagsRead += 1
                report.bytesFetched += fetched
                if let problem = track.problem {
                    report.problems.append("\(name): \(Self.display(URL(string: track.url) ?? folder, under: source.url)): \(problem)")
                }
                library.scanProgress?.tagsRead += 1
                library.scanProgress?.bytesFetched += fetched
                startNext()
            }
        }
        do {
            try store.save(tracks, unchanged: unchanged, mark: mark)
            let playlist = LibraryPlaylist(name: Self.folderName(folder, root: source.url, source: name), kind: .folder,
                                           source: name, url: folderKey)
            try store.savePlaylist(playlist, items: nil, mark: mark)
            report.playlists += 1
        } catch {
            report.problems.append("\(name): \(error)")
            return false
        }
        report.tracks += tracks.count + unchanged.count
        library.scanProgress?.tracks += tracks.count + unchanged.count
        return true
    }

    /// One file's tags, read from its head and tail; a file that cannot be read is kept with
    /// the reason (a rescan tries it again).
    private static func readTrack(_ url: URL, _ entry: DAVEntry, source: String, folder: String,
                                  loader: LoaderActor) async -> (LibraryTrack, Int64) {
        var track = LibraryTrack(url: url.absoluteString, source: source, folder: folder)
        track.size = entry.length
        track.validator = entry.info?.validator
        guard let info = entry.info else {
            track.problem = "the server did not say how long the file is"
            return (track, 0)
        }
        // Every range asked for, so bytes asked twice (the head, then the tag reader's part of
        // it) count once: what the server sent.
        var asked = ByteRanges()
        do {
            let known = url.isFileURL ? nil : info
            // The head first, in one request: the tags are in it, and a first play of the track
            // has seconds of audio without waiting for the network.
            let head = 0..<min(info.length, Self.headBytes)
            _ = try await loader.bytes(in: head, of: url, known: known)
            asked.insert(head)
            let scanned = try await TagReader.read(length: info.length) { range in
                let bytes: [UInt8]
                do {
                    bytes = try await loader.bytes(in: range, of: url, known: known)
                } catch LoaderError.wholeFileOnly {
                    throw TagReader.TailUnavailable()
                }
                asked.insert(range.lowerBound..<(range.lowerBound + Int64(bytes.count)))
                return bytes
            }
            track.codec = scanned.codec.rawValue
            track.duration = scanned.duration
            let tags = scanned.tags
            track.title = tags.title
            track.artist = tags.artist
            track.album = tags.album
            track.albumArtist = tags.albumArtist
            track.genre = tags.genre
            track.trackNumber = tags.trackNumber
            track.discNumber = tags.discNumber
            track.year = tags.year
            if let art = tags.artwork { track.artPath = try? await loader.storeArtwork(art).path }
        } catch {
            track.problem = "\(error)"
        }
        return (track, url.isFileURL ? 0 : asked.count)
    }

    // MARK: Playlist files and feeds

    /// False when the file could not be read (it is then not marked gone).
    private func readPlaylistFile(_ url: URL, _ entry: DAVEntry, into library: isolated LibraryActor, store: LibraryStore,
                                  mark: Int64, report: inout ScanReport) async -> Bool {
        let key = url.absoluteString
        let validator = entry.info?.validator
        if let known = try? store.playlist(url: key), let id = known.id, validator != nil, known.validator == validator {
            try? store.sight(playlist: id, mark: mark)
            report.playlists += 1
            return true
        }
        do {
            guard let document = try await loader.document(url, limit: 4 << 20) else { return true }
            let items = try PlaylistFileParser.parse(document.bytes, name: url.lastPathComponent, base: url)
            var kept: [LibraryPlaylistItem] = []
            for item in items {
                // Only what the player could fetch: this source's files, or the open web without
                // credentials; a local path only from a local playlist.
                guard item.url.isFileURL == url.isFileURL || !item.url.isFileURL else { continue }
                kept.append(LibraryPlaylistItem(playlist: 0, position: kept.count, url: LibraryLocation.canonical(item.url).absoluteString,
                                                title: item.title))
            }
            var playlist = LibraryPlaylist(name: (url.deletingPathExtension().lastPathComponent.removingPercentEncoding
                                                  ?? url.deletingPathExtension().lastPathComponent),
                                           kind: .file, source: source.name, url: key)
            playlist.validator = validator
            try store.savePlaylist(playlist, items: kept, mark: mark)
            report.playlists += 1
            return true
        } catch {
            report.problems.append("\(source.name): playlist \(Self.display(url, under: source.url)): \(error)")
            return false
        }
    }

    /// A podcast feed: its enclosures become tracks (tags from the feed, no ranged reads), the
    /// feed a playlist of them, newest first. Unchanged on the server (304), nothing is parsed
    /// again.
    private func readFeed(into library: isolated LibraryActor, store: LibraryStore, mark: Int64, report: inout ScanReport) async -> Bool {
        let key = source.url.absoluteString
        let known = try? store.playlist(url: key)
        do {
            guard let document = try await loader.document(source.url, ifNoneMatch: known?.validator) else {
                if let id = known?.id {
                    try store.sight(playlist: id, mark: mark)
                    try store.sightTracks(inFolder: key, mark: mark)
                }
                report.tracks = try store.entries(of: try store.playlist(url: key) ?? LibraryPlaylist(name: "", kind: .feed)).count
                report.playlists = 1
                return true
            }
            let feed = try FeedParser.parse(Data(document.bytes), base: source.url)
            var tracks: [LibraryTrack] = []
            var items: [LibraryPlaylistItem] = []
            for item in feed.items {
                let url = LibraryLocation.canonical(item.url).absoluteString
                items.append(LibraryPlaylistItem(playlist: 0, position: items.count, url: url, title: item.title))
                // An episode that is also a file of another source stays that source's track.
                if let known = try store.track(url: url), known.source != source.name { continue }
                var track = LibraryTrack(url: url, source: source.name, folder: key)
                track.title = item.title
                track.artist = feed.author ?? feed.title
                track.album = feed.title
                track.duration = item.duration
                track.published = item.published
                track.size = item.length
                track.genre = "Podcast"
                track.codec = item.mimeType.flatMap(Self.codec(ofMimeType:))?.rawValue
                tracks.append(track)
            }
            try store.save(tracks, unchanged: [], mark: mark)
            var playlist = LibraryPlaylist(name: feed.title, kind: .feed, source: source.name, url: key)
            playlist.validator = document.validator
            try store.savePlaylist(playlist, items: items, mark: mark)
            report.tracks = items.count
            report.playlists = 1
            library.scanProgress?.tracks = items.count
            return true
        } catch {
            report.failed = true
            report.problems.append("\(source.name): cannot read the feed: \(error)")
            return false
        }
    }

    private static func codec(ofMimeType type: String) -> AudioCodec? {
        switch type.lowercased() {
        case "audio/mpeg", "audio/mp3": .mp3
        case "audio/ogg", "audio/opus": .opus
        default: nil
        }
    }

    // MARK: Locations

    /// An href as a URL inside this source, or nil for one that points elsewhere (another
    /// host, or `..` out of the root): a server must not make us fetch — with its
    /// credentials — what is not below the configured root.
    func resolve(_ href: String, in folder: URL) -> URL? {
        guard let raw = URL(string: href, relativeTo: folder)?.absoluteURL, !raw.path.isEmpty, raw.query == nil else { return nil }
        // Checked as it will be fetched: decoded, dot segments (encoded ones too) resolved.
        let url = LibraryLocation.canonical(raw)
        guard url.scheme?.lowercased() == source.url.scheme?.lowercased(),
              url.host?.lowercased() == source.url.host?.lowercased(),
              url.port ?? SourceConfiguration.defaultPort(url) == source.url.port ?? SourceConfiguration.defaultPort(source.url),
              raw.user == nil else { return nil }
        guard source.coverage(of: url) != nil else { return nil }
        return url
    }

    /// Folder URLs compare without a trailing slash.
    private static func key(_ url: URL) -> String {
        var text = url.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        return text
    }

    /// A path below the root, for messages (never with the host, which may be private).
    static func display(_ url: URL, under root: URL) -> String {
        let path = url.path.removingPercentEncoding ?? url.path
        let base = root.path.removingPercentEncoding ?? root.path
        let relative = path.hasPrefix(base) ? String(path.dropFirst(base.count)) : path
        return relative.isEmpty ? "/" : relative
    }

    /// A folder playlist's name: the folder's, or the source's for the root.
    private static func folderName(_ folder: URL, root: URL, source: String) -> String {
        key(folder) == key(root) ? source : (folder.lastPathComponent.removingPercentEncoding ?? folder.lastPathComponent)
    }
}

import Cache
import FoundationEssentials
import Loader
import Logging
import Model
import Parsers

/// Walks one source's storage, folder by folder, whatever the source is, and records what it
/// finds. Tags come from ranged reads of each new or changed file's head and tail through the
/// loader, so those bytes stay in the cache for its first play; unchanged files (same size and
/// version) are not read again, and files a listing already describes (a feed's episodes) are
/// not read at all. A folder unchanged since the last scan (a feed's 304) is only marked seen.
struct LibraryScanner {
    /// At most this many folders per source: a server that lists itself endlessly ends here.
    static let folderLimit = 200_000
    /// Tag reads in flight at once: a scan waits on round trips, not bandwidth.
    static let parallelReads = 8
    static let audioExtensions: Set<String> = ["mp3", "opus", "ogg", "oga", "flac", "wav", "wave", "aif", "aiff", "aifc", "m4a", "m4b", "aac"]
    static let playlistExtensions: Set<String> = ["m3u", "m3u8", "pls"]
    /// The head a scan fetches of each new file: its tags, and about 4 s of 128 kbit/s audio so
    /// the first play starts from the cache. With the tail (128 B for MP3, 8 KiB for Opus) a
    /// track costs at most about 68 KiB, and 4 KiB more behind an ID3v2 picture it skips.
    static let headBytes: Int64 = 60 << 10

    /// The source's name.
    let source: String
    let storage: any MediaStorage
    /// Every configured source: a playlist file's lines may be another's files.
    let sources: SourceSet
    let loader: LoaderActor
    let logger = Logger(label: "cloudplayerd.library")

    func scan(into library: isolated LibraryActor) async -> ScanReport {
        var report = ScanReport(source: source)
        let store: LibraryStore
        let mark: Int64
        do {
            store = try library.database
            mark = try store.beginScan(of: source)
        } catch {
            report.failed = true
            report.problems.append("\(error)")
            return report
        }
        let complete = await walk(into: library, store: store, mark: mark, report: &report)
        do {
            report.gone = try store.finishScan(of: source, mark: mark, folders: report.folders, complete: complete,
                                               problems: report.problems)
        } catch {
            report.problems.append("\(error)")
        }
        if !complete && !report.failed {
            report.problems.append("\(source): some folders could not be listed, so no track was marked gone")
        }
        return report
    }

    // MARK: Folders

    /// Breadth first from the storage's root; returns whether every folder was listed.
    private func walk(into library: isolated LibraryActor, store: LibraryStore, mark: Int64, report: inout ScanReport) async -> Bool {
        let root = storage.root
        var folders = [root]
        var seen: Set<String> = [Self.key(root.location)]
        var complete = true
        var playlistFiles: [StorageFile] = []
        var listed = 0
        while !folders.isEmpty, listed < Self.folderLimit {
            let folder = folders.removeFirst()
            let known = try? store.playlist(url: folder.location.uri)
            let listing: StorageListing?
            do {
                listing = try await storage.list(folder, ifChangedSince: known?.validator)
            } catch {
                complete = false
                if listed == 0 {
                    report.failed = true
                    report.problems.append("\(source): \(storage.rootFailure): \(storage.rootReason(error, source: source))")
                    return false
                }
                report.problems.append("\(source): cannot list \(Self.display(folder.location)): \(error)")
                continue
            }
            listed += 1
            guard let listing else {
                sightUnchanged(folder, known, store: store, mark: mark, report: &report)
                continue
            }
            report.problems += listing.problems.map { "\(source): \($0)" }
            for child in listing.folders where seen.insert(Self.key(child.location)).inserted { folders.append(child) }
            let recorded: Bool
            if let title = listing.feedTitle {
                recorded = recordFeed(listing, folder: folder, title: title, into: library, store: store, mark: mark, report: &report)
            } else if let title = listing.playlistTitle {
                recorded = recordPlaylist(listing, folder: folder, title: title, store: store, mark: mark, report: &report)
            } else {
                report.folders += 1
                let tracks = listing.files.filter { Self.audioExtensions.contains(Self.fileExtension($0.name)) }
                playlistFiles += listing.files.filter { Self.playlistExtensions.contains(Self.fileExtension($0.name)) }
                let name = folder.location == root.location ? source : folder.name
                recorded = await record(tracks, in: folder, named: name, into: library, store: store, mark: mark, report: &report)
            }
            if !recorded { complete = false }
            library.scanProgress?.foldersDone = listed
            library.scanProgress?.foldersFound = listed + folders.count
        }
        if !folders.isEmpty {
            complete = false
            report.problems.append("\(source): stopped after \(Self.folderLimit) folders")
        }
        for file in playlistFiles {
            // A playlist file that could not be read this time is not gone.
            if !(await readPlaylistFile(file, into: library, store: store, mark: mark, report: &report)) { complete = false }
        }
        return complete
    }

    /// A folder (a feed) unchanged since the last scan: it and its tracks are seen again.
    private func sightUnchanged(_ folder: StorageFolder, _ known: LibraryPlaylist?, store: LibraryStore, mark: Int64,
                                report: inout ScanReport) {
        guard let known, let id = known.id else { return }
        do {
            try store.sight(playlist: id, mark: mark)
            try store.sightTracks(inFolder: folder.location.uri, mark: mark)
            report.tracks += try store.entries(of: known).count
            report.playlists += 1
        } catch {
            report.problems.append("\(source): \(error)")
        }
    }

    /// Reads the tags of new and changed files (a few at a time) and records the folder, as the
    /// playlist `name`; false if it could not be recorded (then nothing may be marked gone).
    private func record(_ files: [StorageFile], in folder: StorageFolder, named name: String, into library: isolated LibraryActor,
                        store: LibraryStore, mark: Int64, report: inout ScanReport) async -> Bool {
        guard !files.isEmpty else { return true }
        let folderKey = folder.location.uri
        let known = (try? store.tracks(inFolder: folderKey)) ?? [:]
        var tracks: [LibraryTrack] = []
        var unchanged: [Int64] = []
        var toRead: [StorageFile] = []
        for file in files {
            if let listed = file.listed {
                // What the listing says is the track: recorded as it is, unless it is so already.
                let track = Self.listedTrack(file, listed, source: source, folder: folderKey)
                if let old = known[file.location.uri], let id = old.id, Self.sameListing(old, track) {
                    unchanged.append(id)
                    if old.gone { report.changed += 1 }
                } else {
                    tracks.append(track)
                }
                continue
            }
            if let old = known[file.location.uri], let id = old.id, old.size == file.info?.length,
               Validator.sameVersion(old.validator, file.info?.validator) ?? (old.validator == file.info?.validator),
               old.problem == nil {
                unchanged.append(id)
                if old.gone { report.changed += 1 }
            } else {
                toRead.append(file)
            }
        }
        let loader = loader
        let source = source
        await withTaskGroup(of: (StorageFile, LibraryTrack, Int64).self) { group in
            var pending = toRead[...]
            func startNext() {
                guard let file = pending.popFirst() else { return }
                group.addTask { await Self.readTrack(file, source: source, folder: folderKey, loader: loader) }
            }
            for _ in 0..<Self.parallelReads { startNext() }
            for await (file, track, fetched) in group {
                tracks.append(track)
                report.tagsRead += 1
                report.bytesFetched += fetched
                if let problem = track.problem {
                    report.problems.append("\(source): \(Self.display(file.location)): \(problem)")
                }
                library.scanProgress?.tagsRead += 1
                library.scanProgress?.tracks += 1  // counted as read, so the tracks are never fewer than the tags read
                library.scanProgress?.bytesFetched += fetched
                startNext()
            }
        }
        do {
            try store.save(tracks, unchanged: unchanged, mark: mark)
            let playlist = LibraryPlaylist(name: name, kind: .folder, source: source, url: folderKey)
            try store.savePlaylist(playlist, items: nil, mark: mark)
            report.playlists += 1
        } catch {
            report.problems.append("\(source): \(error)")
            return false
        }
        report.tracks += tracks.count + unchanged.count
        report.changed += tracks.count
        library.scanProgress?.tracks += unchanged.count
        return true
    }

    /// A file whose listing says what it is (a Subsonic song) as a track, without reading it.
    private static func listedTrack(_ file: StorageFile, _ listed: ListedTrack, source: String, folder: String) -> LibraryTrack {
        var track = LibraryTrack(url: file.location.uri, source: source, folder: folder)
        track.size = file.info?.length
        track.validator = file.info?.validator
        track.tags = listed.metadata.tags
        track.duration = listed.metadata.duration
        track.chaptersURL = listed.metadata.chaptersURL
        track.codec = listed.codec?.rawValue
        track.published = listed.published
        return track
    }

    /// Whether a known track is what a listing says again (nothing to write but the sighting).
    private static func sameListing(_ old: LibraryTrack, _ new: LibraryTrack) -> Bool {
        old.folder == new.folder && old.size == new.size && old.validator == new.validator && old.tags == new.tags
            && old.duration == new.duration && old.chaptersURL == new.chaptersURL && old.codec == new.codec && old.published == new.published
            && old.problem == nil
    }

    /// One file's tags, read from its head and tail; a file that cannot be read is kept with
    /// the reason (a rescan tries it again).
    private static func readTrack(_ file: StorageFile, source: String, folder: String,
                                  loader: LoaderActor) async -> (StorageFile, LibraryTrack, Int64) {
        let location = file.location
        var track = LibraryTrack(url: location.uri, source: source, folder: folder)
        track.size = file.info?.length
        track.validator = file.info?.validator
        guard let info = file.info else {
            track.problem = "the server did not say how long the file is"
            return (file, track, 0)
        }
        // Every range asked for, so bytes asked twice (the head, then the tag reader's part of
        // it) count once: what the server sent.
        var asked = ByteRanges()
        do {
            let known = location.isFile ? nil : info
            if !location.isFile {
                // The head first, in one request: the tags are in it, and a first play of the
                // track has seconds of audio without waiting for the network. (A file on this
                // machine has nothing to warm: the tag reader reads what it needs.)
                let head = 0..<min(info.length, Self.headBytes)
                _ = try await loader.bytes(in: head, of: location, known: known)
                asked.insert(head)
            }
            // Pictures are skipped by their sizes: a cover is fetched when the track plays.
            let scanned = try await TagReader.read(length: info.length, pictures: false, chapters: false) { range in
                let bytes: [UInt8]
                do {
                    bytes = try await loader.bytes(in: range, of: location, known: known)
                } catch LoaderError.wholeFileOnly {
                    throw TagReader.TailUnavailable()
                }
                asked.insert(range.lowerBound..<(range.lowerBound + Int64(bytes.count)))
                return bytes
            }
            track.codec = scanned.codec.rawValue
            track.duration = scanned.duration
            track.tags = scanned.tags
            if let art = scanned.tags.artwork { track.artPath = try? await loader.storeArtwork(art).path }
        } catch {
            track.problem = "\(error)"
        }
        return (file, track, location.isFile ? 0 : asked.count)
    }

    // MARK: Feeds and playlist files

    /// A feed's listing: its episodes become tracks (tags from the feed), the feed a playlist of
    /// them, newest first. An episode that is also a file of another source stays that source's.
    private func recordFeed(_ listing: StorageListing, folder: StorageFolder, title: String, into library: isolated LibraryActor,
                            store: LibraryStore, mark: Int64, report: inout ScanReport) -> Bool {
        let key = folder.location.uri
        do {
            var tracks: [LibraryTrack] = []
            var unchanged: [Int64] = []
            var items: [LibraryPlaylistItem] = []
            for file in listing.files {
                items.append(LibraryPlaylistItem(playlist: 0, position: items.count, url: file.location.uri,
                                                 title: file.listed?.metadata.tags.title))
                let known = try store.track(url: file.location.uri)
                if let known, known.source != source { continue }
                var track = LibraryTrack(url: file.location.uri, source: source, folder: key)
                track.size = file.info?.length
                if let listed = file.listed {
                    track.tags = listed.metadata.tags
                    track.duration = listed.metadata.duration
                    track.chaptersURL = listed.metadata.chaptersURL
                    track.codec = listed.codec?.rawValue
                    track.published = listed.published
                }
                // An episode the feed lists as before is only seen, as a folder's unchanged file.
                if let known, let id = known.id, Self.sameListing(known, track) {
                    unchanged.append(id)
                    if known.gone { report.changed += 1 }
                } else {
                    tracks.append(track)
                }
            }
            try store.save(tracks, unchanged: unchanged, mark: mark)
            report.changed += tracks.count
            var playlist = LibraryPlaylist(name: title, kind: .feed, source: source, url: key)
            playlist.validator = listing.version
            try store.savePlaylist(playlist, items: items, mark: mark)
            report.tracks += items.count
            report.playlists += 1
            library.scanProgress?.tracks += items.count
            return true
        } catch {
            report.problems.append("\(source): \(error)")
            return false
        }
    }

    /// A playlist the source keeps: its items in order. Its tracks are recorded where their
    /// own folders (albums) are listed, not here.
    private func recordPlaylist(_ listing: StorageListing, folder: StorageFolder, title: String, store: LibraryStore,
                                mark: Int64, report: inout ScanReport) -> Bool {
        let items = listing.files.enumerated().map { position, file in
            LibraryPlaylistItem(playlist: 0, position: position, url: file.location.uri, title: file.listed?.metadata.tags.title)
        }
        do {
            try store.savePlaylist(LibraryPlaylist(name: title, kind: .file, source: source, url: folder.location.uri),
                                   items: items, mark: mark)
            report.playlists += 1
            return true
        } catch {
            report.problems.append("\(source): \(error)")
            return false
        }
    }

    /// False when the file could not be read (it is then not marked gone).
    private func readPlaylistFile(_ file: StorageFile, into library: isolated LibraryActor, store: LibraryStore,
                                  mark: Int64, report: inout ScanReport) async -> Bool {
        let key = file.location.uri
        let validator = file.info?.validator
        if let known = try? store.playlist(url: key), let id = known.id, validator != nil, known.validator == validator {
            try? store.sight(playlist: id, mark: mark)
            report.playlists += 1
            return true
        }
        do {
            guard let document = try await loader.document(file.location, limit: 4 << 20) else { return true }
            let base = file.location.url ?? URL(fileURLWithPath: "/")
            let items = try PlaylistFileParser.parse(document.bytes, name: file.name, base: base)
            var kept: [LibraryPlaylistItem] = []
            for item in items {
                // Only what the player could fetch: this source's files, or the open web without
                // credentials; a local path only from a local playlist. Read back as the playlist's
                // links (`SourceSet.location(of:namedBy:)`) when played.
                guard item.url.isFileURL == file.location.isFile || !item.url.isFileURL else { continue }
                let link = sources.location(ofLink: item.url, in: file.location)
                kept.append(LibraryPlaylistItem(playlist: 0, position: kept.count, url: link.uri, title: item.title))
            }
            let name = String(Self.splitExtension(file.name).stem)
            var playlist = LibraryPlaylist(name: name, kind: .file, source: source, url: key)
            playlist.validator = validator
            try store.savePlaylist(playlist, items: kept, mark: mark)
            report.playlists += 1
            return true
        } catch {
            report.problems.append("\(source): playlist \(Self.display(file.location)): \(error)")
            return false
        }
    }

    // MARK: Names

    /// Folder locations compare without a trailing slash.
    /// A folder's text without its trailing slash (a server may list a folder with or without
    /// it) — one only: S3's prefixes `f/` and `f//` are two folders.
    private static func key(_ location: TrackLocation) -> String {
        var text = location.uri
        if text.hasSuffix("/") { text.removeLast() }
        return text
    }

    private static func fileExtension(_ name: String) -> String {
        splitExtension(name).extension.lowercased()
    }

    /// A file name's stem and extension: what is before and after its last dot, unless that
    /// dot begins the name (".m3u" is a stem alone).
    private static func splitExtension(_ name: String) -> (stem: Substring, extension: Substring) {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return (name[...], "") }
        return (name[..<dot], name[name.index(after: dot)...])
    }

    /// A place below the source's root, for messages (never with the host, which may be private).
    static func display(_ location: TrackLocation) -> String {
        "/" + location.key
    }
}

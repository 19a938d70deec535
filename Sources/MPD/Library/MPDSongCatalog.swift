import Base
import Library
import Logging
import ServiceLifecycle

/// Every song of the library as `find`, `search` and `listallinfo` print it with every tag
/// (MPD's `song_print_info`; a client that asked for fewer gets the others' lines left out), in
/// their order (folder, then location), printed once per edition of the library
/// (`LibraryEdition`). A search then costs the ids its index finds, a sort and a copy: `search
/// any "gold"` (20,000 songs of 100,000, 3 MB) read and printed its 20,000 rows anew for each
/// client in 119 ms (MPD, whose database lives in memory: 60).
///
/// It holds the songs' text, about 150 bytes a song (15 MB for 100,000; MPD holds more), and 16
/// bytes a song more. Made in the background (`keepCurrent`) once the first client connects (a
/// daemon no MPD client reaches holds none), at the end of a scan that changed the library (which
/// clients are told of once it is made: `remade`), and when a query finds it behind (another
/// edition, sources placed otherwise): such a query is answered from the library meanwhile.
package final class MPDSongCatalog: Sendable {
    /// The songs of one edition, placed by one mapping of the sources.
    package struct Listing: Sendable {
        let edition: LibraryEdition
        let paths: SongPaths
        /// The songs' ids, ascending, and each one's place in the listing.
        let ids: [Int64]
        let places: [Int32]
        /// The songs' text in chunks of `chunkSize`, none split between two: song n starts at
        /// `starts[n]` counted as if each chunk were full (its chunk is `starts[n] / chunkSize`)
        /// and ends where the next starts, or with its chunk. In chunks, the text is made at its
        /// size: one array grown by doubling held up to twice its bytes, and had to be copied.
        let chunks: [[UInt8]]
        let starts: [UInt32]
        static let chunkSize = 1 << 20
        /// The songs' folders (locations), in order, each with the place of its first song: a
        /// folder's songs are together, and those under a folder too (`listall`).
        let folders: [String]
        let folderStarts: [Int32]

        var count: Int { starts.count - 1 }

        /// The places of the songs with `found` ids, in listing order; an id not listed (a gone
        /// track) is left out.
        func places(of found: [Int64]) -> [Int32] {
            var result: [Int32] = []
            result.reserveCapacity(found.count)
            for id in found {
                var low = 0, high = ids.count
                while low < high {
                    let middle = (low + high) / 2
                    if ids[middle] < id { low = middle + 1 } else { high = middle }
                }
                if low < ids.count, ids[low] == id { result.append(places[low]) }
            }
            result.sort()
            return result
        }

        /// The places of the songs in `folder` and below it, in listing order (as
        /// `TagQuerySQL.folderRange` finds them in the database).
        func places(under folder: String) -> [Range<Int32>] {
            let range = TagQuerySQL.folderRange(folder)
            func firstFolder(notBefore name: String, equal: Bool = false) -> Int {
                var low = 0, high = folders.count
                while low < high {
                    let middle = (low + high) / 2
                    // In bytes, as SQLite orders them (Swift's `<` and `==` on strings are by
                    // characters: an é and an e with its accent apart are equal).
                    let before = folders[middle].utf8.lexicographicallyPrecedes(name.utf8)
                    if before || (equal && folders[middle].hasSameBytes(as: name)) { low = middle + 1 } else { high = middle }
                }
                return low
            }
            func songs(_ first: Int, _ end: Int) -> Range<Int32> {
                (first < folders.count ? folderStarts[first] : Int32(count))..<(end < folders.count ? folderStarts[end] : Int32(count))
            }
            let itself = songs(firstFolder(notBefore: range.itself), firstFolder(notBefore: range.itself, equal: true))
            return [itself, songs(firstFolder(notBefore: range.from), firstFolder(notBefore: range.upTo))].filter { !$0.isEmpty }
        }

        /// Writes song `place` without the lines of the `omitted` tags (`omittedTags(keeping:)`).
        func write(_ place: Int32, omitting omitted: [[UInt8]], to response: inout MPDResponse) {
            let text = song(at: place)
            guard !omitted.isEmpty else { return response.append(contentsOf: text) }
            var line = text.startIndex
            while line < text.endIndex {
                let end = text[line...].firstIndex(of: 0x0A).map { $0 + 1 } ?? text.endIndex
                if !omitted.contains(where: { text[line..<end].starts(with: $0) }) { response.append(contentsOf: text[line..<end]) }
                line = end
            }
        }

        /// The starts of the lines of the tags a client did not ask for (`tagtypes`): a song's
        /// other lines start with other keys, and no value holds a line break.
        static func omittedTags(keeping tags: Set<MPDTag>) -> [[UInt8]] {
            MPDTag.allCases.filter { !tags.contains($0) }.map { Array("\($0.rawValue): ".utf8) }
        }

        /// A song's MPD path: its text's first line is `file: PATH`.
        func path(at place: Int32) -> String {
            let text = song(at: place)
            let end = text.firstIndex(of: 0x0A) ?? text.endIndex
            return String(decoding: text[(text.startIndex + 6)..<end], as: UTF8.self)
        }

        func song(at place: Int32) -> ArraySlice<UInt8> {
            let start = Int(starts[Int(place)]), next = Int(starts[Int(place) + 1])
            let chunk = start / Self.chunkSize
            let end = next / Self.chunkSize == chunk ? next % Self.chunkSize : chunks[chunk].count
            return chunks[chunk][start % Self.chunkSize..<end]
        }
    }

    private let current = Locked<Listing?>(nil)
    /// The edition no listing can be made of (a song of more than a chunk): not tried again.
    private let unlistable = Locked<LibraryEdition?>(nil)
    /// Those waiting for a listing (`remade`); nil while no `keepCurrent` runs.
    private let waiters = Locked<[CheckedContinuation<Void, Never>]?>(nil)
    /// A client connected once: listings are made from then on.
    private let wanted = Locked(false)
    private let logger = Logger(label: "cloudplayerd.mpd")
    private let requests: AsyncStream<Void>
    private let requested: AsyncStream<Void>.Continuation

    package init() {
        (requests, requested) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    /// The listing, when it lists the songs under `paths`; nil (and a new one asked for) when
    /// there is none or its sources map otherwise. Whether it is of the library's edition now,
    /// the caller sees from its query's.
    package func listing(for paths: SongPaths) -> Listing? {
        if let listing = current.withLock({ $0 }), listing.paths.maps(like: paths.sources) { return listing }
        refresh()
        return nil
    }

    /// Whether `listing` is of `edition` (the library's, as a query read it); when not, a new
    /// one is asked for.
    package func isCurrent(_ listing: Listing, at edition: LibraryEdition) -> Bool {
        if listing.edition == edition { return true }
        refresh()
        return false
    }

    /// Asks for a listing of the library as it is now (`keepCurrent` makes it).
    func refresh() {
        requested.yield()
    }

    /// A client connected: from now on listings are made (the first one at once).
    package func want() {
        let first = wanted.withLock { wanted in
            defer { wanted = true }
            return !wanted
        }
        if first { refresh() }
    }

    /// Asks for a listing of the library as it is now, and returns once it is made — or was
    /// current, or could not be (the library changed again meanwhile) —; at once when no
    /// `keepCurrent` runs (no server) or no client ever connected (none is kept).
    func remade() async {
        guard wanted.withLock({ $0 }) else { return }
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
            let queued = waiters.withLock { waiters -> Bool in
                guard waiters != nil else { return false }
                waiters?.append(waiter)
                return true
            }
            if queued { refresh() } else { waiter.resume() }
        }
    }

    /// Makes a listing whenever one is asked for (one not current: the library's edition or the
    /// sources' mapping changed), until the server shuts down; then those waiting for one go on.
    func keepCurrent(library: LibraryActor, paths: @escaping @Sendable () async -> SongPaths) async {
        waiters.withLock { $0 = [] }
        for await _ in requests.cancelOnGracefulShutdown() {
            // Those who asked before this round began: it reads the library after them.
            let asked = waiters.withLock { waiters in
                defer { waiters = [] }
                return waiters ?? []
            }
            await remake(library: library, paths: await paths())
            for waiter in asked { waiter.resume() }
        }
        let left = waiters.withLock { waiters in
            defer { waiters = nil }
            return waiters ?? []
        }
        for waiter in left { waiter.resume() }
    }

    /// A listing of the library as it is, unless the one kept is of it.
    private func remake(library: LibraryActor, paths: SongPaths) async {
        guard let edition = try? await library.edition(), unlistable.withLock({ $0 }) != edition else { return }
        let stale = current.withLock { listing -> Bool in
            if let kept = listing, kept.edition == edition, kept.paths.maps(like: paths.sources) { return false }
            // Dropped before the next is made: no query can use it, and both at once would
            // be twice the memory.
            listing = nil
            return true
        }
        let began = ContinuousClock.now
        guard stale, let made = try? await Self.listing(of: library, paths: paths, edition: edition) else { return }
        guard let made = made else {
            unlistable.withLock { $0 = edition }
            logger.notice("MPD: a song's tags are over \(Listing.chunkSize) bytes: find and search are answered from the library")
            return
        }
        current.withLock { $0 = made }
        let took = Int((ContinuousClock.now - began) / .milliseconds(1))
        let size = made.chunks.reduce(0) { $0 + $1.count }
        logger.info("MPD: \(made.ids.count.counted("song")) listed for find and search (\(size / 1024) KiB, made in \(took) ms)")
    }

    /// Every listed track, read a page at a time and printed; nil when the library changed
    /// meanwhile (the scan's end, or the next query, asks again) or the server is shutting down;
    /// `.some(nil)` when a song is too large to be listed (or all of them, over 4 GiB).
    private static func listing(of library: LibraryActor, paths: SongPaths, edition: LibraryEdition) async throws -> Listing?? {
        let size = Listing.chunkSize
        var chunks: [[UInt8]] = []
        var starts: [UInt32] = []
        var byID: [(id: Int64, place: Int32)] = []
        var folders: [String] = [], folderStarts: [Int32] = []
        var cursor: TrackCursor?
        var song = MPDResponse()
        repeat {
            guard !Task.isShuttingDownGracefully, !Task.isCancelled else { return nil }
            let page = try await library.tracks(matching: TagQuery(), from: cursor, limit: 2000)
            for track in page.tracks {
                guard let id = track.id else { continue }
                MPDLibraryDatabase.song(track, paths: paths).write(to: &song)
                guard song.bytes.count <= size else { return .some(nil) }
                if chunks.isEmpty || chunks[chunks.count - 1].count + song.bytes.count > size {
                    guard chunks.count < Int(UInt32.max) / size else { return .some(nil) }
                    chunks.append([])
                    chunks[chunks.count - 1].reserveCapacity(size)
                }
                byID.append((id, Int32(starts.count)))
                if folders.last?.hasSameBytes(as: track.folder) != true {
                    folders.append(track.folder)
                    folderStarts.append(Int32(starts.count))
                }
                starts.append(UInt32((chunks.count - 1) * size + chunks[chunks.count - 1].count))
                chunks[chunks.count - 1] += song.take()
            }
            cursor = page.next
        } while cursor != nil
        guard try await library.edition() == edition else { return nil }
        starts.append(UInt32(max(0, chunks.count - 1) * size + (chunks.last?.count ?? 0)))
        byID.sort { $0.id < $1.id }
        return Listing(edition: edition, paths: paths, ids: byID.map(\.id), places: byID.map(\.place), chunks: chunks, starts: starts,
                       folders: folders, folderStarts: folderStarts)
    }
}

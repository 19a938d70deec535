import Base
import Cache
import Config
import DBus
import Foundation
import Library
import Loader
import Logging
import Manager1
import Model
import MPRIS
import Playback

/// Carries out `org.cloudplayerd.Manager1` calls: library scans and queries, the queue,
/// playlists, the cache. Everything that waits runs off the bus thread (`BusOutcome.later`);
/// every error is a D-Bus error with a one-line message and never a secret.
package final class Manager: Sendable {
    package static let errorPrefix = Manager1Interface.errorPrefix

    let player: Player
    let loader: LoaderActor
    /// Re-reads the config file (as SIGHUP does); returns the problem, or nil.
    let reload: @Sendable () async -> String?
    /// Tells the world a scan ended (the ScanFinished signal).
    let scanFinished = Locked<(@Sendable ([ScanReport]) -> Void)?>(nil)
    /// Tells the world the playlists changed (MPRIS PlaylistCount).
    let libraryChanged = Locked<(@Sendable () -> Void)?>(nil)
    private let logger = Logger(label: "cloudplayerd.manager")

    package init(player: Player, loader: LoaderActor, reload: @escaping @Sendable () async -> String?) {
        self.player = player
        self.loader = loader
        self.reload = reload
    }

    private var library: LibraryActor { player.library }

    func carryOut(_ call: ManagerCall) -> BusOutcome {
        .later { [self] in
            do {
                return try await run(call)
            } catch let error as LibraryError {
                return .failed(name: Self.errorName(error), message: "\(error)")
            } catch let error as ManagerError {
                return .failed(name: Self.errorPrefix + error.name, message: error.message)
            } catch {
                return .failed(name: Self.errorPrefix + "Failed", message: "\(error)")
            }
        }
    }

    private static func errorName(_ error: LibraryError) -> String {
        switch error {
        case .newerDatabase, .cannotOpen: errorPrefix + "LibraryUnavailable"
        case .noSuchSource, .noSuchPlaylist, .noSuchTrack: errorPrefix + "NotFound"
        case .badPlaylistName, .notEditable: "org.freedesktop.DBus.Error.InvalidArgs"
        }
    }

    private func run(_ call: ManagerCall) async throws -> BusOutcome {
        switch call.member {
        case "Status": return .reply(.dictionary(await status()))
        case "Scan": return try await startScan(call.strings(0))
        case "ScanStatus": return .reply(.dictionary(await scanStatus()))
        case "ListTracks":
            let filter = TrackFilter(artist: call.string(0).nonEmpty, album: call.string(1).nonEmpty, title: call.string(2).nonEmpty,
                                     source: call.string(3).nonEmpty)
            let tracks = try await library.tracks(filter, limit: Self.limit(call.number(5)), offset: call.number(4))
            return .reply(.dictionaries(tracks.map(Self.fields)))
        case "Search":
            let tracks = try await library.search(call.string(0), limit: Self.limit(call.number(1)))
            return .reply(.dictionaries(tracks.map(Self.fields)))
        case "QueueAdd":
            let urls = try await locations(call.strings(0))
            let added = await player.enqueue(urls)
            if call.flag(1), let first = added.first { await player.playNow(first.id) }
            return .reply(.uint32(UInt32(added.count)))
        case "QueueList": return .reply(.dictionaries(try await queue()))
        case "QueueClear":
            await player.replaceQueue(with: [], play: false)
            return .done
        case "QueuePlay":
            let entries = await library.entries
            let index = call.number(0)
            guard entries.indices.contains(index) else {
                throw ManagerError.invalid("the queue has \(entries.count) entries; there is no entry \(index + 1)")
            }
            await player.playNow(entries[index].id)
            return .done
        case "PlaylistList":
            return .reply(.dictionaries(try await library.playlists().map(Self.fields)))
        case "PlaylistShow":
            let playlist = try await library.playlist(call.string(0))
            let itemTitles = playlist.kind == .feed  // an episode is called what its feed calls it
            return .reply(.dictionaries(try await library.entries(of: playlist).map { Self.fields($0, itemTitle: itemTitles) }))
        case "PlaylistCreate":
            let id = try await library.createPlaylist(named: call.string(0)).id ?? 0
            libraryChanged.withLock { $0 }?()
            return .reply(.int64(id))
        case "PlaylistDelete":
            try await library.deletePlaylist(call.string(0))
            libraryChanged.withLock { $0 }?()
            try await keepPinned()
            return .done
        case "PlaylistAdd":
            let urls = try await locations(call.strings(1))
            try await library.add(urls.map(\.absoluteString), toPlaylist: call.string(0))
            let playlist = try await library.playlist(call.string(0))
            try await keepPinned(downloading: playlist.pinned ? playlist : nil)
            return .done
        case "PlaylistRemove":
            let urls = try await locations(call.strings(1))
            let removed = try await library.remove(urls.map(\.absoluteString), fromPlaylist: call.string(0))
            try await keepPinned()
            return .reply(.uint32(UInt32(removed)))
        case "PlaylistPlay":
            try await activate(call.string(0))
            return .done
        case "Sources": return .reply(.dictionaries(try await sources()))
        case "CacheStats": return .reply(.dictionary(Self.fields(await loader.cacheStats())))
        case "CacheShow":
            let url = try await locations([call.string(0)])[0]
            let cached = await loader.cachedRanges(of: url)
            let ranges = cached?.ranges ?? []
            return .reply(.dictionary([
                ("url", .string(QueueEntry(id: 0, url: url).publicURL.absoluteString)),
                ("length", .int64(cached?.length ?? -1)),
                ("cached", .int64(ranges.reduce(0) { $0 + Int64($1.count) })),
                ("ranges", .int64s(ranges.flatMap { [$0.lowerBound, $0.upperBound] })),
            ]))
        case "CachePin", "CacheUnpin":
            let pinning = call.member == "CachePin"
            let playlist = try await library.setPinned(pinning, playlist: call.string(0))
            try await keepPinned(downloading: pinning ? playlist : nil)
            return .done
        case "CacheClear": return .reply(.int64(await loader.clearCache()))
        case "Reload":
            if let problem = await reload() { throw ManagerError.invalid(problem) }
            return .done
        default:
            return .failed(name: "org.freedesktop.DBus.Error.UnknownMethod", message: "no method \(call.member.prefix(80))")
        }
    }

    /// Makes the loader keep pinned playlists' files, and downloads `playlist` whole in the
    /// background.
    package func keepPinned(downloading playlist: LibraryPlaylist? = nil) async throws {
        let urls = try await library.pinnedURLs().compactMap { URL(string: $0) }
        await loader.keep(urls)
        guard let playlist else { return }
        let files = try await library.entries(of: playlist).compactMap { URL(string: $0.url) }
        Task { [loader, logger] in
            for file in files {
                do { try await loader.fetchWhole(file) } catch {
                    logger.notice("pinned track not downloaded", metadata: ["track": "\(file.lastPathComponent)", "reason": "\(error)"])
                }
            }
        }
    }

    /// Replaces the queue with a playlist's tracks and plays the first (MPRIS ActivatePlaylist too).
    func activate(_ reference: String) async throws {
        let playlist = try await library.playlist(reference)
        let urls = try await library.entries(of: playlist).compactMap { URL(string: $0.url) }
        guard !urls.isEmpty else { throw ManagerError.invalid("the playlist '\(playlist.name)' is empty") }
        await player.replaceQueue(with: urls, play: true)
    }

    // MARK: Scans

    private func startScan(_ names: [String]) async throws -> BusOutcome {
        let configured = await loader.configuration.sources
        let sources: [SourceConfiguration]
        if names.isEmpty {
            sources = configured.filter { $0.kind != .http }
            guard !sources.isEmpty else { throw ManagerError.invalid("no source to scan: add a webdav, local or feed source to the config file") }
        } else {
            sources = try names.map { name in
                guard let source = configured.first(where: { $0.name == name }) else { throw LibraryError.noSuchSource(name) }
                return source
            }
        }
        guard await library.beginScanning(sources[0].name) else {
            throw ManagerError(name: "Busy", message: "a scan is already running; see cloudplayerctl status")
        }
        Task { [self, library, loader, logger, scanFinished] in
            let reports = await library.scan(sources, loader: loader)
            // Pinned folders and feeds may hold new tracks: keep and fetch them too.
            for playlist in (try? await library.playlists().map(\.playlist).filter(\.pinned)) ?? [] {
                try? await keepPinned(downloading: playlist)
            }
            for report in reports {
                logger.info("scan finished", metadata: ["source": "\(report.source)", "folders": "\(report.folders)",
                                                        "tracks": "\(report.tracks)", "read": "\(report.tagsRead)",
                                                        "gone": "\(report.gone)", "problems": "\(report.problems.count)"])
            }
            scanFinished.withLock { $0 }?(reports)
        }
        return .done
    }

    private func scanStatus() async -> [(String, BusValue)] {
        let progress = await library.currentScan
        var fields: [(String, BusValue)] = [("running", .bool(progress != nil))]
        if let progress {
            fields += [("source", .string(progress.source)), ("folders_done", .uint32(UInt32(clamping: progress.foldersDone))),
                       ("folders_found", .uint32(UInt32(clamping: progress.foldersFound))),
                       ("tracks", .uint32(UInt32(clamping: progress.tracks))), ("tags_read", .uint32(UInt32(clamping: progress.tagsRead))),
                       ("bytes", .int64(progress.bytesFetched))]
        }
        fields.append(("reports", .dictionaries(await library.lastScan.map(Self.fields))))
        return fields
    }

    static func fields(_ report: ScanReport) -> [(String, BusValue)] {
        [("source", .string(report.source)), ("folders", .uint32(UInt32(clamping: report.folders))),
         ("tracks", .uint32(UInt32(clamping: report.tracks))), ("tags_read", .uint32(UInt32(clamping: report.tagsRead))),
         ("gone", .uint32(UInt32(clamping: report.gone))), ("playlists", .uint32(UInt32(clamping: report.playlists))),
         ("bytes", .int64(report.bytesFetched)), ("failed", .bool(report.failed)), ("problems", .strings(report.problems))]
    }

    // MARK: Answers

    private func status() async -> [(String, BusValue)] {
        let status = await player.status
        let current = await player.current
        let info = await player.currentInfo
        var fields: [(String, BusValue)] = [("status", .string(status.rawValue))]
        if let current {
            let known = try? await library.track(url: current.url.absoluteString)
            fields += [("url", .string(current.publicURL.absoluteString)),
                       ("title", .string(info?.tags.title ?? known?.title ?? current.displayName)),
                       ("artist", .string(info?.tags.artist ?? known?.artist ?? "")),
                       ("album", .string(info?.tags.album ?? known?.album ?? ""))]
            if let position = await player.position() { fields.append(("position", .double(position.seconds))) }
            if let duration = info?.duration ?? known?.duration { fields.append(("duration", .double(duration))) }
        }
        fields += [("volume", .double(await player.volume)), ("loop", .string(await library.loop.rawValue)),
                   ("shuffle", .bool(await library.shuffle)), ("queue_length", .uint32(UInt32(clamping: await library.entries.count))),
                   ("scanning", .bool(await library.currentScan != nil))]
        do {
            let summary = try await library.summary(sources: [])
            fields += [("library_tracks", .uint32(UInt32(clamping: summary.tracks))), ("playlists", .uint32(UInt32(clamping: summary.playlists)))]
        } catch {
            fields.append(("library_problem", .string("\(error)")))
        }
        return fields
    }

    private func queue() async throws -> [[(String, BusValue)]] {
        let entries = await library.entries
        let current = await player.current
        var rows: [[(String, BusValue)]] = []
        for (index, entry) in entries.enumerated() {
            let known = try? await library.track(url: entry.url.absoluteString)
            var row: [(String, BusValue)] = [("index", .uint32(UInt32(index))), ("url", .string(entry.publicURL.absoluteString)),
                                             ("title", .string(known?.displayTitle ?? entry.displayName)),
                                             ("current", .bool(entry.id == current?.id))]
            if let artist = known?.artist { row.append(("artist", .string(artist))) }
            if let duration = known?.duration { row.append(("duration", .double(duration))) }
            rows.append(row)
        }
        return rows
    }

    private func sources() async throws -> [[(String, BusValue)]] {
        let configured = await loader.configuration.sources
        let summary = try? await library.summary(sources: configured.map(\.name))
        return configured.map { source in
            let counts = summary?.sources.first { $0.name == source.name }
            return [("name", .string(source.name)), ("type", .string(source.kind.rawValue)),
                    ("url", .string(QueueEntry(id: 0, url: source.url).publicURL.absoluteString)),
                    ("tracks", .uint32(UInt32(clamping: counts?.tracks ?? 0))), ("gone", .uint32(UInt32(clamping: counts?.gone ?? 0))),
                    ("last_scan", .int64(counts?.lastScan.map { Int64($0.timeIntervalSince1970) } ?? -1)),
                    ("problems", .string(counts?.problems ?? ""))]
        }
    }

    /// Track references as locations: a library id, or an http(s)/file URL without credentials.
    private func locations(_ references: [String]) async throws -> [URL] {
        guard !references.isEmpty else { throw ManagerError.invalid("name at least one track") }
        var urls: [URL] = []
        for reference in references.prefix(100_000) {
            if Int64(reference) != nil {
                guard let url = URL(string: try await library.track(reference).url) else { throw LibraryError.noSuchTrack(reference) }
                urls.append(url)
                continue
            }
            guard let url = URL(string: reference), ["http", "https", "file"].contains(url.scheme?.lowercased() ?? "") else {
                throw ManagerError.invalid("'\(reference.prefix(80))' is neither a track id nor an http(s) or file URL")
            }
            guard url.user == nil, url.password == nil else {
                throw ManagerError.invalid("credentials in a URI are not accepted over D-Bus; name the server in the config file")
            }
            urls.append(url)
        }
        return urls
    }

    private static func limit(_ asked: Int) -> Int {
        asked <= 0 ? 1000 : min(asked, 100_000)
    }

    static func fields(_ track: LibraryTrack) -> [(String, BusValue)] {
        var fields: [(String, BusValue)] = [("id", .int64(track.id ?? 0)),
                                            ("url", .string(QueueEntry(id: 0, url: URL(string: track.url) ?? URL(fileURLWithPath: "/")).publicURL.absoluteString)),
                                            ("title", .string(track.displayTitle)), ("source", .string(track.source)), ("gone", .bool(track.gone))]
        for (key, value) in [("artist", track.artist), ("album", track.album), ("album_artist", track.albumArtist),
                             ("genre", track.genre), ("codec", track.codec), ("problem", track.problem)] {
            if let value { fields.append((key, .string(value))) }
        }
        for (key, value) in [("track", track.trackNumber), ("disc", track.discNumber), ("year", track.year)] {
            if let value { fields.append((key, .int32(Int32(clamping: value)))) }
        }
        if let duration = track.duration { fields.append(("duration", .double(duration))) }
        if let published = track.published { fields.append(("published", .int64(Int64(published.timeIntervalSince1970)))) }
        return fields
    }

    static func fields(_ summary: PlaylistSummary) -> [(String, BusValue)] {
        let playlist = summary.playlist
        return [("id", .int64(playlist.id ?? 0)), ("name", .string(playlist.name)), ("kind", .string(playlist.kind.rawValue)),
                ("source", .string(playlist.source ?? "")), ("tracks", .uint32(UInt32(clamping: summary.count))),
                ("pinned", .bool(playlist.pinned))]
    }

    /// A playlist line: the library's track if it knows the location (with the line's own title
    /// if `itemTitle`), else the location and the line's title.
    static func fields(_ entry: PlaylistEntry, itemTitle: Bool = false) -> [(String, BusValue)] {
        if let track = entry.track {
            var fields = fields(track)
            if itemTitle, let title = entry.title, let index = fields.firstIndex(where: { $0.0 == "title" }) {
                fields[index].1 = .string(title)
            }
            return fields
        }
        let url = URL(string: entry.url) ?? URL(fileURLWithPath: "/")
        return [("url", .string(QueueEntry(id: 0, url: url).publicURL.absoluteString)),
                ("title", .string(entry.title ?? QueueEntry(id: 0, url: url).displayName))]
    }

    static func fields(_ stats: CacheStats) -> [(String, BusValue)] {
        [("entries", .uint32(UInt32(clamping: stats.entries))), ("bytes", .int64(stats.bytes)), ("limit", .int64(stats.limit)),
         ("pinned_entries", .uint32(UInt32(clamping: stats.pinnedEntries))), ("pinned_bytes", .int64(stats.pinnedBytes)),
         ("directory", .string(stats.directory))]
    }
}

/// A Manager1 call refused: its error name (after `org.cloudplayerd.Error.`) and message.
package struct ManagerError: Error {
    var name: String
    var message: String

    static func invalid(_ message: String) -> ManagerError {
        ManagerError(name: "InvalidArgs", message: message)
    }
}

extension String {
    /// nil for an empty string: an empty D-Bus argument means "not given".
    var nonEmpty: String? { isEmpty ? nil : self }
}

/// MPRIS Playlists offers the library's playlists.
extension Manager: MPRISPlaylistCatalog {
    package func playlists() async -> [MPRISPlaylist] {
        guard let summaries = try? await player.library.playlists() else { return [] }
        return summaries.compactMap { summary in
            summary.playlist.id.map { MPRISPlaylist(id: MPRISModel.playlistID($0), name: summary.playlist.name, icon: "") }
        }
    }

    package func activate(libraryID: Int64) async throws {
        try await activate(String(libraryID))
    }
}

import Base
import DBus
import Glibc
import Library
import Logging
import Playback

/// The library as the desktop's search sees it, for GNOME Shell and KRunner alike: the words
/// typed find artists, albums, tracks and playlists, a bounded few of each, from the library's
/// indexes (a shell asks at every key stroke); a result chosen plays. What the two desktops
/// differ in — method names, how a result travels — is theirs (`GnomeSearchProvider`,
/// `KRunnerRunner`).
package struct DesktopSearch: Sendable {
    /// How many results of each kind one search returns: GNOME Shell shows a handful per
    /// provider, KRunner a screenful in all.
    package static let limits: [DesktopResultID.Kind: Int] = [.artist: 5, .album: 5, .track: 10, .playlist: 5]
    /// Longer text is cut: what is typed into a search box, not a document.
    static let maxText = 256

    let library: LibraryActor
    let intake: QueueIntake
    /// Replaces the queue with a library playlist and plays it (the daemon's, as MPRIS's
    /// ActivatePlaylist does).
    let activatePlaylist: @Sendable (Int64) async throws -> Void
    let logger = Logger(label: "cloudplayerd.search")

    package init(library: LibraryActor, intake: QueueIntake, activatePlaylist: @escaping @Sendable (Int64) async throws -> Void) {
        self.library = library
        self.intake = intake
        self.activatePlaylist = activatePlaylist
    }

    // MARK: Finding

    /// The results for what was typed (a shell's terms, joined): artists, then albums, tracks,
    /// playlists, each kind in the library's order.
    package func results(for terms: [String]) async throws -> [DesktopResult] {
        let text = String(terms.joined(separator: " ").prefix(Self.maxText))
        guard text.contains(where: { !$0.isWhitespace }) else { return [] }
        let artists = try await library.artists(matching: text, limit: Self.limits[.artist] ?? 0)
        let albums = try await library.albums(matching: text, limit: Self.limits[.album] ?? 0)
        let tracks = try await library.search(text, limit: Self.limits[.track] ?? 0)
        let playlists = try await library.playlists(matching: text, limit: Self.limits[.playlist] ?? 0)
        let found = (artists + albums).map { Self.result($0) } + tracks.compactMap { Self.result($0) } + playlists.compactMap { Self.result($0) }
        return await Self.withCoversPresent(found)
    }

    /// What a result shows, for ids a shell got from `results` (a search earlier); an id of a
    /// track no longer in the library is left out, as GNOME Shell expects.
    package func describe(_ ids: [String]) async throws -> [DesktopResult] {
        var described: [DesktopResult] = []
        for text in ids.prefix(100) {
            guard let result = try? await describe(try DesktopResultID.parse(text)) else { continue }
            described.append(result)
        }
        return await Self.withCoversPresent(described)
    }

    private func describe(_ id: DesktopResultID) async throws -> DesktopResult? {
        switch id.kind {
        case .track:
            return Self.result(try await library.track(id: String(id.number)))
        case .artist, .album:
            let track = try await library.track(id: String(id.number))
            let name = id.kind == .artist ? track.artist : track.album
            guard let name else { return nil }
            let group = LibraryGroup(kind: id.kind == .artist ? .artist : .album, name: name,
                                     artist: id.kind == .album ? track.albumArtist ?? track.artist : nil,
                                     trackID: id.number, artPath: track.artPath)
            return Self.result(group)
        case .playlist:
            return Self.result(try await library.playlist(String(id.number)))
        }
    }

    private static func result(_ group: LibraryGroup) -> DesktopResult {
        switch group.kind {
        case .artist:
            DesktopResult(id: DesktopResultID(.artist, group.trackID), name: group.name, detail: "Artist", coverPath: group.artPath)
        case .album:
            DesktopResult(id: DesktopResultID(.album, group.trackID), name: group.name,
                          detail: "Album" + (group.artist.map { " · " + $0 } ?? ""), coverPath: group.artPath)
        }
    }

    private static func result(_ track: LibraryTrack) -> DesktopResult? {
        guard let id = track.id, !track.gone else { return nil }
        let name = track.title ?? String(track.url.split(separator: "/").last ?? "")
        let detail = [track.artist, track.album].compactMap { $0 }.joined(separator: " · ")
        return DesktopResult(id: DesktopResultID(.track, id), name: name, detail: detail.isEmpty ? "Track" : detail, coverPath: track.artPath)
    }

    private static func result(_ playlist: LibraryPlaylist) -> DesktopResult? {
        guard let id = playlist.id, !playlist.gone else { return nil }
        let detail = switch playlist.kind {
        case .user: "Playlist"
        case .file: "Playlist file"
        case .feed: "Podcast"
        case .folder: "Folder"
        }
        return DesktopResult(id: DesktopResultID(.playlist, id), name: playlist.name, detail: detail)
    }

    /// The results with a cover only where its file is still there (the art cache may have been
    /// cleared since the scan): a name of a missing file would show as a broken picture.
    private static func withCoversPresent(_ results: [DesktopResult]) async -> [DesktopResult] {
        let paths = Set(results.compactMap(\.coverPath))
        guard !paths.isEmpty else { return results }
        let present = (try? await BlockingPool.shared.run { paths.filter { access($0, R_OK) == 0 } }) ?? []
        return results.map { result in
            var checked = result
            if let path = result.coverPath, !present.contains(path) { checked.coverPath = nil }
            return checked
        }
    }

    // MARK: Playing

    /// Plays a result: a track is added to the queue and plays; an artist's or album's tracks
    /// replace the queue and play; a playlist is activated (as MPRIS's ActivatePlaylist).
    package func play(_ text: String) async throws {
        let id = try DesktopResultID.parse(text)
        logger.info("playing a search result", metadata: ["result": "\(id)"])
        switch id.kind {
        case .track:
            _ = try await intake.add(references: [String(id.number)], play: true)
        case .artist, .album:
            try await intake.replace(with: try await intake.items(for: try await trackIDs(of: id)), playlist: nil)
        case .playlist:
            try await activatePlaylist(id.number)
        }
    }

    /// Adds a result's tracks to the end of the queue (KRunner's second action): a track, an
    /// artist's or an album's. A playlist is played whole, not queued.
    package func queue(_ text: String) async throws {
        let id = try DesktopResultID.parse(text)
        switch id.kind {
        case .track:
            _ = try await intake.add(references: [String(id.number)], play: false)
        case .artist, .album:
            _ = try await intake.add(references: try await trackIDs(of: id), play: false)
        case .playlist:
            throw BusCallError.invalidArguments("a playlist is played, not queued: choose it to play it")
        }
    }

    /// The library ids of an artist's or an album's tracks, in play order, as many as a queue holds.
    private func trackIDs(of id: DesktopResultID) async throws -> [String] {
        let tracks = try await library.tracks(of: id.kind == .artist ? .artist : .album, standingFor: id.number, limit: PlayQueue.maxEntries)
        guard !tracks.isEmpty else { throw BusCallError.invalidArguments("'\(id)' has no tracks in the library now") }
        return tracks.compactMap { $0.id.map(String.init) }
    }
}

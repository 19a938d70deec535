import Library
import Model
import Playback

/// Stored playlists over the library's playlists: the user's own (`save`, `rm`, `playlistadd`,
/// `playlistclear` change them; `idle stored_playlist` follows) and the playlist files the scan
/// found (read only). Folder playlists are not listed: they are the directories. The library's
/// playlists have no modification time, so no `Last-Modified` is said rather than a made-up one.
package enum StoredPlaylists: MPDCommandFamily {
    package static let commands: [String: MPDCommand] = [
        "listplaylists": MPDCommand(.read) { call in
            for summary in try await libraryActor(call).playlists() where shown(summary.playlist) {
                call.response.field("playlist", summary.playlist.name)
            }
        },
        "listplaylist": MPDCommand(.read, arguments: 1...2) { call in
            let (entries, paths) = try await listed(call)
            for entry in entries { call.response.field("file", paths.path(of: entry.url)) }
        },
        "listplaylistinfo": MPDCommand(.read, arguments: 1...2) { call in
            let (entries, paths) = try await listed(call)
            for entry in entries {
                if let track = entry.track {
                    call.write(MPDLibraryDatabase.song(track, paths: paths))
                } else {
                    call.response.field("file", paths.path(of: entry.url))
                    if let title = entry.title { call.response.field("Title", title) }
                }
                try await call.response.flushIfLarge()
            }
        },
        "load": MPDCommand(.add, arguments: 1...3) { call in try await load(call) },
        "save": MPDCommand(.control, arguments: 1...2) { call in
            let library = try libraryActor(call)
            let locations = call.context.snapshot.queue.entries.map(\.location)
            try await refusing {
                if (try? await library.playlist(call.arguments[0])) != nil { throw MPDError(.exist, "Playlist already exists") }
                _ = try await library.createPlaylist(named: call.arguments[0])
                if !locations.isEmpty { try await library.add(locations, toPlaylist: call.arguments[0]) }
            }
        },
        "rm": MPDCommand(.control, arguments: 1...1) { call in
            let library = try libraryActor(call)
            try await refusing { try await library.deletePlaylist(try await own(call.arguments[0], library).name) }
        },
        "playlistadd": MPDCommand(.control, arguments: 2...3) { call in
            let database = try DatabaseCommands.libraryDatabase(call)
            let name = call.arguments[0], uri = call.arguments[1]
            let paths = await database.paths
            var locations: [TrackLocation]
            if let folder = try await database.tracks(under: uri) {
                locations = folder.map(\.location)
            } else if let path = paths.location(ofPath: uri) {
                locations = [TrackLocation(uri: path)]
            } else if call.session.requester == .stranger {
                // A playlist keeps a URL's text only, and plays it later as the user's own: a
                // stranger puts only the library's songs in one.
                throw MPDError(.permission, QueueRefusal.accessDenied.description)
            } else {
                locations = [paths.sources.location(of: uri)]
            }
            try await refusing {
                if (try? await database.library.playlist(name)) == nil { _ = try await database.library.createPlaylist(named: name) }
                try await database.library.add(locations, toPlaylist: name)
            }
        },
        "playlistclear": MPDCommand(.control, arguments: 1...1) { call in
            let library = try libraryActor(call)
            let name = call.arguments[0]
            try await refusing {
                guard let playlist = try? await own(name, library) else {
                    _ = try await library.createPlaylist(named: name)
                    return
                }
                let urls = try await library.entries(of: playlist).map { TrackLocation(uri: $0.url) }
                if !urls.isEmpty { _ = try await library.remove(urls, fromPlaylist: name) }
            }
        },
    ]

    static func shown(_ playlist: LibraryPlaylist) -> Bool {
        playlist.kind == .user || playlist.kind == .file
    }

    static func libraryActor(_ call: MPDCall) throws(MPDError) -> LibraryActor {
        try DatabaseCommands.libraryDatabase(call).library
    }

    /// A playlist by its name, listed or not; MPD's `No such playlist` otherwise.
    static func named(_ name: String, _ library: LibraryActor) async throws -> LibraryPlaylist {
        guard let playlist = try? await library.playlist(name), shown(playlist) || playlist.kind == .feed else {
            throw MPDError(.noExist, "No such playlist")
        }
        return playlist
    }

    /// One of the user's own playlists: the others are the storage's, not to be changed here.
    static func own(_ name: String, _ library: LibraryActor) async throws -> LibraryPlaylist {
        let playlist = try await named(name, library)
        guard playlist.kind == .user else { throw MPDError(.argument, "Playlist \(name) is not editable here") }
        return playlist
    }

    /// The entries of the playlist the call names, within its optional `START:END`.
    static func listed(_ call: MPDCall) async throws -> ([PlaylistEntry], SongPaths) {
        let database = try DatabaseCommands.libraryDatabase(call)
        let playlist = try await named(call.arguments[0], database.library)
        var entries = try await database.library.entries(of: playlist)
        if call.argument(1) != nil {
            let range = try call.range(1)
            entries = Array(entries[min(range.lowerBound, entries.count)..<min(range.upperBound, entries.count)])
        }
        return (entries, await database.paths)
    }

    static func load(_ call: MPDCall) async throws {
        let database = try DatabaseCommands.libraryDatabase(call)
        let playlist = try await named(call.arguments[0], database.library)
        let (entries, paths) = try await listed(call)
        // A playlist file's or a feed's entries as that document's links, as MPRIS plays them.
        let items = entries.map { entry in
            QueueItem(location: entry.location(in: playlist, among: paths.sources), metadata: entry.track.map(MPDLibraryDatabase.metadata) ?? TrackMetadata())
        }
        guard !items.isEmpty else { return }
        do {
            call.context.take(try await call.context.intake.add(items, at: .end))
        } catch let refusal as QueueRefusal {
            throw refusal.mpdError
        }
    }

    /// The library's refusals (a bad name, a playlist not the user's) as MPD's errors.
    static func refusing(_ body: () async throws -> Void) async throws {
        do {
            try await body()
        } catch let error as LibraryError {
            throw MPDError(.argument, "\(error)")
        }
    }
}

import Library

/// `lsinfo`, `listfiles`, `listall`, `listallinfo`: each source is a top-level directory, and
/// below it the folders as the scan found them (see `SongPaths`).
extension DatabaseCommands {
    static func lsinfo(_ call: inout MPDCall) async throws {
        let database = try libraryDatabase(call)
        let paths = await database.paths
        let uri = call.argument(0) ?? ""
        try call.checkScheme(uri)
        if isRoot(uri) {
            for name in paths.sourceNames {
                guard let folder = paths.folderLocation(ofPath: name), try await database.library.hasTracks(under: folder) else { continue }
                call.response.field("directory", name)
            }
            // The stored playlists after the root's folders, as MPD lists them: `mpc
            // lsplaylists` and ncmpcpp find them here, not by `listplaylists`.
            for summary in try await database.library.playlists() where StoredPlaylists.shown(summary.playlist) {
                call.response.field("playlist", summary.playlist.name)
            }
            return
        }
        if let location = paths.location(ofPath: uri), let track = try await database.library.track(at: .init(uri: location)), !track.gone {
            call.write(MPDLibraryDatabase.song(track, paths: paths))
            return
        }
        // A folder's songs before its subfolders, in MPD 0.23's order.
        let folder = try await existingFolder(uri, database, paths)
        for track in try await database.library.tracks(directlyIn: folder) {
            call.write(MPDLibraryDatabase.song(track, paths: paths))
            try await call.response.flushIfLarge()
        }
        for subfolder in try await database.library.subfolders(of: folder) {
            call.response.field("directory", paths.path(of: subfolder))
        }
    }

    /// As `lsinfo`, with names, not paths, and files' sizes (MPD lists the storage; here, the
    /// storage as the scan found it).
    static func listfiles(_ call: inout MPDCall) async throws {
        let database = try libraryDatabase(call)
        let paths = await database.paths
        let uri = call.argument(0) ?? ""
        if isRoot(uri) {
            for name in paths.sourceNames { call.response.field("directory", name) }
            return
        }
        let folder = try await existingFolder(uri, database, paths)
        for subfolder in try await database.library.subfolders(of: folder) {
            call.response.field("directory", lastName(paths.path(of: subfolder)))
        }
        for track in try await database.library.tracks(directlyIn: folder) {
            call.response.field("file", lastName(paths.path(of: track)))
            if let size = track.size { call.response.field("size", size) }
        }
    }

    /// Every directory and song under a folder (`listall`: their paths; `listallinfo`: the songs
    /// whole), from the song catalog or read a page at a time; each directory is named before its songs.
    static func listall(_ call: inout MPDCall, info: Bool) async throws {
        let database = try libraryDatabase(call)
        let paths = await database.paths
        let uri = call.argument(0) ?? ""
        let roots: [(name: String, folder: String)]
        if isRoot(uri) {
            roots = paths.sourceNames.compactMap { name in paths.folderLocation(ofPath: name).map { (name: name, folder: $0) } }
        } else {
            let folder = try await existingFolder(uri, database, paths)
            roots = [(paths.path(of: folder), folder)]
        }
        if try await listallListed(&call, database, paths, roots: roots, info: info) { return }
        for root in roots {
            var directories = DirectoryNames(named: root.name)
            // The folder asked for is named first, as MPD names it (`existingFolder` found tracks
            // under it; a source of the root may have none).
            let named = isRoot(uri) ? try await database.library.hasTracks(under: root.folder) : true
            if named { call.response.field("directory", root.name) }
            var cursor: TrackCursor?
            repeat {
                let page = try await database.library.tracks(under: root.folder, from: cursor, limit: MPDLibraryDatabase.pageSize)
                for track in page.tracks {
                    let song = paths.path(of: track)
                    for directory in directories.unnamed(above: song) { call.response.field("directory", directory) }
                    if info { call.write(MPDSong(uri: song, metadata: MPDLibraryDatabase.metadata(track))) } else { call.response.field("file", song) }
                }
                try await call.response.flushIfLarge()
                cursor = page.next
            } while cursor != nil
        }
    }

    static func isRoot(_ uri: String) -> Bool {
        uri.isEmpty || uri == "/"
    }

    /// The folder a directory URI names, or MPD's `No such directory`.
    static func existingFolder(_ uri: String, _ database: MPDLibraryDatabase, _ paths: SongPaths) async throws -> String {
        guard let folder = paths.folderLocation(ofPath: uri), try await database.library.hasTracks(under: folder) else {
            throw MPDError(.noExist, "No such directory")
        }
        return folder
    }

    private static func lastName(_ path: String) -> String {
        String(path[(path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex)...])
    }
}

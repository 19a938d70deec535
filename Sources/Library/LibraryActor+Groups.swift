import Model

/// The desktop search's look-ups (`LibraryStore+Groups`), on the library's actor.
extension LibraryActor {
    package func artists(matching text: String, limit: Int) throws -> [LibraryGroup] {
        try checked { try $0.artists(matching: text, limit: limit) }
    }

    package func albums(matching text: String, limit: Int) throws -> [LibraryGroup] {
        try checked { try $0.albums(matching: text, limit: limit) }
    }

    package func playlists(matching text: String, limit: Int) throws -> [LibraryPlaylist] {
        try checked { try $0.playlists(matching: text, limit: limit) }
    }

    package func tracks(of kind: LibraryGroup.Kind, standingFor trackID: Int64, limit: Int) throws -> [LibraryTrack] {
        try checked { try $0.tracks(of: kind, standingFor: trackID, limit: limit) }
    }

    /// The cover file (in the art cache) a track showed as it played; nothing for a location
    /// the library does not know.
    package func recordArtwork(at location: TrackLocation, file: String) throws {
        try checked { try $0.recordArtwork(url: location.uri, file: file) }
    }
}

import Model
import Playback

/// What the MPD server asks of the library, which the daemon hands in (the `mpd-library` side
/// implements it over `LibraryActor`): song URIs both ways, what a folder holds, counts for
/// `stats`, and the library's changes for `idle`. `MPDNoLibrary` stands in without a library.
package protocol MPDLibrary: Sendable {
    /// The MPD URI of a track: a path relative to the "music directory" for a source's track,
    /// the URL itself for one from outside the library.
    func songURI(of location: TrackLocation) -> String
    /// What `add URI` hands `QueueIntake`: a location's text (or a library id) for an MPD URI;
    /// nil when the URI names nothing of the library (it is then tried as a URL).
    func reference(forSongURI uri: String) async -> String?
    /// Every track under a folder URI ("" is the root), for `add DIR`; nil when it is not a folder.
    func tracks(under folder: String) async throws -> [QueueItem]?
    /// Where each MPD path is (a song's or a folder's location; nil for a path in no source),
    /// placed against the sources as they are now — asked once for a command list's `add`s.
    func songLocations() async -> @Sendable (String) -> String?
    /// What those locations hold, in one look-up of the library: a track as the library knows
    /// it, a folder as every track under it, anything else as the location it is (tried when its
    /// turn comes, as a single `add` takes it).
    func items(forSongLocations locations: [String]) async throws -> [[QueueItem]]
    /// `stats`' counts.
    func statistics() async -> MPDStatistics
    /// The library's changes, for `idle` (database, update, stored_playlist).
    func changes() -> AsyncStream<Set<MPDSubsystem>>
    /// The number of the scan under way (`status`' `updating_db`), nil when none is: `mpc update
    /// --wait` waits until `status` no longer names its job.
    var updatingJob: Int? { get }
    /// What the library side keeps up to date for the server, for as long as it runs (returns
    /// at its graceful shutdown): the song catalog of `MPDLibraryDatabase`.
    func maintain() async
    /// A client connected (what `maintain` keeps is wanted from then on).
    func clientArrived()
}

extension MPDLibrary {
    package func maintain() async {}
    package func clientArrived() {}
    /// Without songs by path: none.
    package func songLocations() async -> @Sendable (String) -> String? { { _ in nil } }
    package func items(forSongLocations locations: [String]) async throws -> [[QueueItem]] {
        locations.map { [QueueItem(location: TrackLocation(uri: $0))] }
    }
}

/// `stats`' library side.
package struct MPDStatistics: Sendable {
    package var artists = 0
    package var albums = 0
    package var songs = 0
    /// Seconds of all the songs.
    package var playtime = 0.0
    /// When the database was last updated (a scan ended), seconds since 1970.
    package var updated: Int64?

    package init(artists: Int = 0, albums: Int = 0, songs: Int = 0, playtime: Double = 0, updated: Int64? = nil) {
        self.artists = artists
        self.albums = albums
        self.songs = songs
        self.playtime = playtime
        self.updated = updated
    }
}

/// No library: URIs are the locations' own text, no folders, no counts, no changes.
package struct MPDNoLibrary: MPDLibrary {
    package init() {}

    package func songURI(of location: TrackLocation) -> String { location.publicURI }
    package func reference(forSongURI uri: String) async -> String? { nil }
    package func tracks(under folder: String) async throws -> [QueueItem]? { nil }
    package func statistics() async -> MPDStatistics { MPDStatistics() }
    package func changes() -> AsyncStream<Set<MPDSubsystem>> { AsyncStream { $0.finish() } }
    package var updatingJob: Int? { nil }
}

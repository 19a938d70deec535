import Library
import Model
import Playback

/// The library as `QueueIntake` asks it: tracks by id, and what is known of tracks at locations
/// — so a track a client queues shows its tags before it plays.
struct LibraryCatalog: TrackCatalog {
    let library: LibraryActor

    func track(id: String) async throws -> (location: String, source: String, metadata: TrackMetadata) {
        let track = try await library.track(id: id)
        return (track.url, track.source, Self.metadata(track))
    }

    func metadata(of locations: [TrackLocation]) async -> [String: TrackMetadata] {
        guard let known = try? await library.tracks(at: locations) else { return [:] }
        return known.mapValues(Self.metadata)
    }

    /// What the queue and MPRIS show of a library track before it plays.
    static func metadata(_ track: LibraryTrack) -> TrackMetadata {
        track.metadata
    }
}

import Model

/// What a library knows that a client's request to queue needs: a library track by its id, and
/// the tags of tracks at given locations — so the queue shows them before they play. The daemon's
/// library answers it; `cloudplayerd play`, which has no library, has none.
package protocol TrackCatalog: Sendable {
    /// Library track `id`: its location's text form, the source whose scan recorded it (a feed's
    /// episode may be on another server: it stays a link of the feed, `SourceSet.location(of:recordedBy:)`)
    /// and what is known of it; throws if there is no such track.
    func track(id: String) async throws -> (location: String, source: String, metadata: TrackMetadata)
    /// What is known of the tracks at `locations`, by their text form; unknown ones are left out.
    func metadata(of locations: [TrackLocation]) async -> [String: TrackMetadata]
}

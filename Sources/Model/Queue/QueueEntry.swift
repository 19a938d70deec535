/// One place in the play queue. The same file queued twice is two entries with two ids, so MPRIS
/// track ids and "what is playing" never confuse them. An entry is the same entry whatever has
/// been learnt of it since: equality and hashing go by id and location, not by metadata.
package struct QueueEntry: Sendable, Hashable, Identifiable {
    package let id: UInt64
    package var location: TrackLocation { parts.location }
    /// What is known of it: the library's (or a feed's) tags when it was queued, with the gaps
    /// filled from its own once it has played.
    package var metadata: TrackMetadata {
        get { parts.metadata }
        set { parts = Parts(location: parts.location, metadata: newValue) }
    }

    /// Held once: the queue travels whole in every player event, and copying an entry is then
    /// one reference, not the dozen its location and tags hold.
    private var parts: Parts

    private final class Parts: Sendable {
        let location: TrackLocation
        let metadata: TrackMetadata

        init(location: TrackLocation, metadata: TrackMetadata) {
            self.location = location
            self.metadata = metadata
        }
    }

    package static func == (lhs: QueueEntry, rhs: QueueEntry) -> Bool {
        lhs.id == rhs.id && lhs.location == rhs.location
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(location)
    }

    package init(id: UInt64, location: TrackLocation, metadata: TrackMetadata = TrackMetadata()) {
        self.id = id
        parts = Parts(location: location, metadata: metadata)
    }

    /// What to call the track: its title, else its file name — never a URL's user or password.
    package var title: String {
        metadata.tags.title ?? displayName
    }

    /// What to call the track in messages: the file name, never a URL's user, password or query.
    package var displayName: String { location.displayName }
}

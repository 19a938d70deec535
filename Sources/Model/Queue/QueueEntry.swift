/// One place in the play queue. The same file queued twice is two entries with two ids, so MPRIS
/// track ids and "what is playing" never confuse them. An entry is the same entry whatever has
/// been learnt of it since: equality and hashing go by id and location, not by metadata.
package struct QueueEntry: Sendable, Hashable, Identifiable {
    package let id: UInt64
    package let location: TrackLocation
    /// What is known of it: the library's (or a feed's) tags when it was queued, with the gaps
    /// filled from its own once it has played.
    package var metadata: TrackMetadata

    package static func == (lhs: QueueEntry, rhs: QueueEntry) -> Bool {
        lhs.id == rhs.id && lhs.location == rhs.location
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(location)
    }

    package init(id: UInt64, location: TrackLocation, metadata: TrackMetadata = TrackMetadata()) {
        self.id = id
        self.location = location
        self.metadata = metadata
    }

    /// What to call the track: its title, else its file name — never a URL's user or password.
    package var title: String {
        metadata.tags.title ?? displayName
    }

    /// What to call the track in messages: the file name, never a URL's user, password or query.
    package var displayName: String { location.displayName }
}

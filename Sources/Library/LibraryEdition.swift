/// Which state of the tracks an answer was read from: the database opened (a rebuilt one starts
/// its count anew) and its count of listed changes (`LibrarySchema.trackEdition`). Two answers
/// with equal editions are about the same tracks with the same listed columns.
package struct LibraryEdition: Sendable, Equatable {
    /// The database this process opened, numbered in the order it opened them.
    package let store: Int
    package let changes: Int64

    package init(store: Int, changes: Int64) {
        self.store = store
        self.changes = changes
    }
}

/// The ids of the tracks a filter found, in no order, with the edition they were found in.
package struct TrackIDs: Sendable {
    /// Gone tracks among them (those no listing shows), for whoever holds the listed ones.
    package var ids: [Int64]
    package var edition: LibraryEdition
}

/// What changed in the library, for those who show it and are not the ones who changed it (the
/// MPD server's `idle`: `update`, `database`, `stored_playlist`).
package enum LibraryChange: Sendable, Equatable {
    /// A scan began.
    case scanStarted
    /// A scan ended; `libraryChanged` when it added, changed or lost a track (or brought one
    /// back), so a client's view of the library is out of date.
    case scanFinished(libraryChanged: Bool)
    /// A playlist was made, changed or deleted.
    case playlistsChanged
}

extension LibraryActor {
    /// A new stream of the library's changes from now on.
    package nonisolated func changes() -> AsyncStream<LibraryChange> {
        changeBroadcast.subscribe()
    }

    /// Tells the listeners.
    func announce(_ change: LibraryChange) {
        changeBroadcast.yield(change)
    }
}

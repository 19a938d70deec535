import Model

/// How much of a track is here, for playing offline: `cloudplayerctl queue ls` and MPRIS's
/// `cloudplayerd:cached` show it.
package enum CacheState: String, Sendable {
    case full, partial, none
}

/// A followed track's cache state, now that it changed (`LoaderActor.followCacheStates`).
package struct CacheStateChange: Sendable, Equatable {
    package let location: TrackLocation
    package let state: CacheState

    package init(location: TrackLocation, state: CacheState) {
        self.location = location
        self.state = state
    }
}

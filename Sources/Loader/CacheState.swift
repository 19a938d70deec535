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

/// A track whose cache state is followed (`LoaderActor.followCacheStates`): where it is, the
/// state last reported, and how many queue entries hold it.
struct FollowedTrack: Sendable {
    let location: TrackLocation
    var state: CacheState
    var entries = 1
}

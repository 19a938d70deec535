/// How much of a track is here, for playing offline: `cloudplayerctl queue ls` shows it.
package enum CacheState: String, Sendable {
    case full, partial, none
}

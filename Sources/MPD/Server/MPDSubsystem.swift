/// What `idle` waits for, by MPD's names.
package enum MPDSubsystem: String, Sendable, CaseIterable {
    case database
    case update
    case storedPlaylist = "stored_playlist"
    case playlist
    case player
    case mixer
    case output
    case options
    case partition
    case sticker
    case subscription
    case message
    case neighbor
    case mount
}

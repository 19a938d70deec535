/// The three states MPRIS knows.
public enum PlaybackStatus: String, Sendable {
    case playing = "Playing"
    case paused = "Paused"
    case stopped = "Stopped"
}

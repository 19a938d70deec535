import Loader
import Model
import Output
import Playback

extension Player {
    /// A player whose mailbox runs — as the daemon's service group runs it — until `shutdown()`.
    static func running(loader: LoaderActor = LoaderActor(), output: OutputActor, settings: PlaybackSettings = PlaybackSettings()) -> Player {
        let player = Player(loader: loader, output: output, settings: settings)
        Task { await player.run() }
        return player
    }
}

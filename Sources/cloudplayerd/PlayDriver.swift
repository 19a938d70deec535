import Base
import Daemon
import FoundationEssentials
import Model
import Playback
import ServiceLifecycle

/// What `cloudplayerd play` does with the player: queues the files, plays the first from
/// `--start`, says on standard output what plays and on standard error what fails, and ends the
/// group when the queue has played out, a client pressed Stop, or the output failed.
struct PlayDriver: Service {
    private let player: Player
    private let events: AsyncStream<PlayerEvent>
    private let locations: [TrackLocation]
    private let start: Double
    private let volume: Double
    private let quiet: Bool
    private let failed = Locked(0)

    init(player: Player, locations: [TrackLocation], start: Double, volume: Double, quiet: Bool) {
        self.player = player
        // Subscribed now, so no event is missed before `run()`.
        events = player.subscribe()
        self.locations = locations
        self.start = start
        self.volume = volume
        self.quiet = quiet
    }

    /// Tracks that failed, and output failures: the exit status is 1 if there were any.
    var failures: Int { failed.withLock { $0 } }

    func run() async {
        // Once this returns the sound has stopped (a signal's stop has its own tighter bound).
        defer { StopDeadline.arm(within: StopDeadline.afterSound) }
        await player.perform(.setVolume(volume))
        let entries = await player.perform(.add(locations.map { QueueItem(location: $0) }, at: .end, play: false)).queue.entries
        guard let first = entries.first else { return }
        await player.perform(.playEntry(first.id, at: start))
        var announced: QueueEntry?
        for await event in events.cancelOnGracefulShutdown() {
            switch event.change {
            case .trackStarted(let entry, let info, _):
                // Once per track: a chained stream's link of another format starts it again.
                if !quiet, entry.id != announced?.id { say("Playing \(entry.displayName)\(Self.describe(entry.metadata.tags, info))") }
                announced = entry
            case .trackFailed(let entry, let error):
                failed.withLock { $0 += 1 }
                complain("\(entry.location.url?.path ?? entry.location.uri): \(error)")
            case .outputFailed(let error):
                failed.withLock { $0 += 1 }
                complain("\(error)")
                return
            case .outputLost(let error):
                complain("\(error); waiting for it to come back")
            case .outputReturned:
                if !quiet { say("The sound server is back") }
            case .queueFinished, .statusChanged(.stopped):
                // The end of the queue, or a Stop from a media key or playerctl, ends `play`.
                return
            case .buffering(let entry, let waiting):
                if !quiet && waiting { say("Buffering \(entry.displayName)…") }
            case .chapterChanged(let chapter, let index):
                if !quiet, let chapter, let index {
                    say("Chapter \(index + 1)/\(event.snapshot.chapters.count): \(chapter.title)")
                }
            case .streamSongChanged(let song):
                let names = [song.artist, song.title].compactMap { $0 }
                if !quiet, !names.isEmpty { say("Now: \(names.joined(separator: " – "))") }
            case .subscribed, .statusChanged, .trackEnded, .currentChanged, .artworkReady, .seeked, .positionCorrected,
                 .volumeChanged, .loopChanged, .shuffleChanged, .replayGainChanged, .queueChanged, .queueReplaced, .timersChanged, .progressChanged,
                 .listenStarted, .listened, .cacheChanged, .speedChanged, .chapterArtworkReady:
                break
            }
        }
    }

    private static func describe(_ tags: TrackTags, _ info: TrackInfo) -> String {
        var parts: [String] = []
        let names = [tags.artist, tags.title].compactMap { $0 }
        if !names.isEmpty { parts.append(names.joined(separator: " – ")) }
        var technical = "\(info.codec.rawValue), \(info.format)"
        if let duration = info.duration {
            let whole = Int(duration.rounded())
            technical += ", \(whole / 60):\((whole % 60).zeroPadded(2))"
        }
        parts.append("(\(technical))")
        return ": " + parts.joined(separator: " ")
    }
}

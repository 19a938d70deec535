import FoundationEssentials
import Model
import Playback

/// A radio station's songs as listens, for a user who counts them (`[scrobble] stations`): a
/// station's song has no length to take half of, so it counts when heard whole — from the title
/// change that began it to the one that ended it — for at least `shortest` (a jingle, an advert,
/// a station's name read out are no listens), or for `joinedLate` when listening began in it.
/// Time paused, or waiting for a stalled station, is not heard.
package struct StationListens {
    package static let shortest = 30.0
    package static let joinedLate = 240.0

    package init() {}

    private struct Song {
        var listen: Listen
        /// Heard from its first sample: it began after listening did.
        var whole: Bool
        var heard = 0.0
        var playingSince: Date?
    }

    private var song: Song?
    /// Songs that began in the stream playing now.
    private var songs = 0

    /// What `event` means for the station's song: the one it starts ("playing now"), and the one
    /// it ends, if that one counts.
    package mutating func observe(_ event: PlayerEvent, at now: Date) -> (started: Listen?, heard: Listen?) {
        let snapshot = event.snapshot
        let playing = snapshot.status == .playing && snapshot.currentInfo?.isLive == true && !snapshot.streamStalled
        switch event.change {
        case .streamSongChanged(let tags):
            let ended = finish(at: now)
            defer { songs += 1 }
            guard let artist = tags.artist, let title = tags.title, !artist.isEmpty, !title.isEmpty else { return (nil, ended) }
            let listen = Listen(listenedAt: Int64(now.timeIntervalSince1970), artist: artist, track: title)
            song = Song(listen: listen, whole: songs > 0, playingSince: playing ? now : nil)
            return (listen, ended)
        case .trackStarted, .currentChanged, .trackFailed, .queueFinished, .queueReplaced:
            // Another track, or none: the song was heard to here, and did not end on its own.
            let ended = finish(at: now, whole: false)
            songs = 0
            return (nil, ended)
        default:
            if playing, song?.playingSince == nil {
                song?.playingSince = now
            } else if !playing, let since = song?.playingSince {
                song?.heard += now.timeIntervalSince(since)
                song?.playingSince = nil
            }
            return (nil, nil)
        }
    }

    /// Ends the song playing: its listen if it counts. `whole`: it ended where the next began.
    private mutating func finish(at now: Date, whole: Bool = true) -> Listen? {
        guard var ended = song else { return nil }
        song = nil
        if let since = ended.playingSince { ended.heard += now.timeIntervalSince(since) }
        let counts = ended.whole && whole ? ended.heard >= Self.shortest : ended.heard >= Self.joinedLate
        return counts ? ended.listen : nil
    }
}

import Foundation
import Model
import Playback
import Scrobbling
import Testing

/// A station's songs as listens (`[scrobble] stations`): a song heard whole from one title
/// change to the next counts from 30 s; the song listening began in, from four minutes; time
/// paused or stalled is not heard; another track ends the song without it counting as whole.
@Suite struct StationListensTests {
    /// Events of a station playing, at seconds from a start.
    struct Station {
        var listens = StationListens()
        var snapshot = PlayerSnapshot()
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        var heard: [Listen] = []
        var started: [Listen] = []

        init() {
            snapshot.status = .playing
            var info = TrackInfo(codec: .mp3, format: PCMFormat(sampleRate: 44100, channels: 2, bitsPerSample: 16), totalFrames: nil)
            info.isLive = true
            snapshot.currentInfo = info
        }

        mutating func at(_ seconds: Double, _ change: PlayerEvent.Change) {
            let (began, ended) = listens.observe(PlayerEvent(change: change, snapshot: snapshot), at: start.addingTimeInterval(seconds))
            if let began { started.append(began) }
            if let ended { heard.append(ended) }
        }

        mutating func song(_ seconds: Double, _ title: String) {
            at(seconds, .streamSongChanged(TrackTags(title: title, artist: "Artist")))
        }

        mutating func status(_ seconds: Double, _ status: PlaybackStatus) {
            snapshot.status = status
            at(seconds, .statusChanged(status))
        }
    }

    @Test("a song heard whole counts from 30 s; the one listening began in from four minutes; each is announced as it begins")
    func thresholds() {
        var station = Station()
        station.song(0, "Joined in")       // heard 100 s, but not from its start
        station.song(100, "Whole")          // 31 s, whole
        station.song(131, "Jingle")         // 29 s: no listen
        station.song(160, "Long")
        station.at(500, .trackEnded(QueueEntry(id: 1, location: TrackLocation(url: URL(string: "http://x/")!))))
        station.at(500, .currentChanged(nil))  // 340 s, not whole (another track came): four minutes count
        #expect(station.heard.map(\.track) == ["Whole", "Long"])
        #expect(station.heard.first?.listenedAt == Int64(station.start.timeIntervalSince1970) + 100)
        #expect(station.started.map(\.track) == ["Joined in", "Whole", "Jingle", "Long"])
    }

    @Test("time paused or stalled is not heard; a blank title between songs is no listen and ends the one before")
    func pausesAndBlanks() {
        var station = Station()
        station.song(0, "First")
        station.song(10, "Paused")
        station.status(20, .paused)
        station.status(100, .playing)      // heard 10 + 15 = 25 s by 115: no listen
        station.at(115, .streamSongChanged(TrackTags()))
        station.song(120, "Stalled")
        station.snapshot.streamStalled = true
        station.at(125, .buffering(QueueEntry(id: 1, location: TrackLocation(url: URL(string: "http://x/")!)), true))
        station.snapshot.streamStalled = false
        station.at(200, .buffering(QueueEntry(id: 1, location: TrackLocation(url: URL(string: "http://x/")!)), false))
        station.song(230, "Next")           // heard 5 + 30 = 35 s: a listen
        #expect(station.heard.map(\.track) == ["Stalled"])
        #expect(station.started.map(\.track) == ["First", "Paused", "Stalled", "Next"])
    }
}

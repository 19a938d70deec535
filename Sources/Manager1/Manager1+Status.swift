import DBus

extension Manager1 {
    /// What plays, the queue's length, volume, loop, shuffle, the timers, and the library's size.
    package struct Status: BusRecord, Equatable {
        package var status: String
        /// The current track: its location (never with credentials), tags and where it is.
        package var url: String?
        package var title: String?
        package var artist: String?
        package var album: String?
        package var position: Double?
        package var duration: Double?
        package var volume: Double
        package var loop: String
        package var shuffle: Bool
        package var queueLength: UInt32
        package var scanning: Bool
        package var libraryTracks: UInt32?
        package var playlists: UInt32?
        /// Why the library cannot be used, when it cannot.
        package var libraryProblem: String?
        /// Seconds until the sleep timer pauses playback, when one is set.
        package var sleepLeft: Double?
        /// Set when playback stops at the end of the current track.
        package var stopAfter: Bool?
        /// Set when the sleep timer pauses playback where the next chapter starts.
        package var sleepAtChapterEnd: Bool?
        /// With `[scrobble]`: listens not yet sent to ListenBrainz.
        package var listensWaiting: UInt32?
        /// Why scrobbling is paused (a refused token), when it is.
        package var scrobbleProblem: String?
        /// Why the last track that could not play did not (its name and the reason), until a
        /// track starts.
        package var failure: String?
        /// The current track's chapters, if it has any, and the index of the one heard.
        package var chapters: [Chapter]?
        package var chapter: UInt32?
        /// The pace the current track plays at, its pitch kept, when it is not 1.
        package var speed: Double?
        /// Seconds of silence skipped since the daemon started, once there are any.
        package var silenceSkipped: Double?
        /// The current track as decoded, once it plays: its codec, rate, channels, the width it
        /// plays at (16 or 24 bits) and its average kilobits per second (`TrackInfo.bitrate`).
        package var codec: String?
        package var sampleRate: UInt32?
        package var channels: UInt32?
        package var bits: UInt32?
        package var bitrate: UInt32?
        /// The current track is a live stream (a station): no length, no seek.
        package var live: Bool?
        /// The song a station says it plays, as heard.
        package var songTitle: String?
        package var songArtist: String?

        package init(status: String, volume: Double, loop: String, shuffle: Bool, queueLength: UInt32, scanning: Bool) {
            self.status = status
            self.volume = volume
            self.loop = loop
            self.shuffle = shuffle
            self.queueLength = queueLength
            self.scanning = scanning
        }
    }

    /// A chapter of the current track: where it starts, in seconds, and its title.
    package struct Chapter: BusRecord, Equatable {
        package var start: Double
        package var title: String

        package init(start: Double, title: String) {
            self.start = start
            self.title = title
        }
    }
}

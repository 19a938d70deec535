import Base
import FoundationEssentials
import Library
import Loader
import Manager1
import Model
import Playback

/// The calls that report: the player's and the library's state (`Status`), the queue
/// (`QueueList`), the sources (`Sources`) — each read from the player's last snapshot and the
/// library, never by asking the player — and the one that commands it (`Control`).
extension Manager1Service {
    func status() async throws -> Manager1.Status {
        let snapshot = player.latest
        var status = Manager1.Status(status: snapshot.status.rawValue, volume: snapshot.volume, loop: snapshot.queue.loop.rawValue,
                                     shuffle: snapshot.queue.shuffle, queueLength: UInt32(clamping: snapshot.queue.entries.count),
                                     scanning: await library.currentScan != nil)
        status.sleepLeft = snapshot.sleepAt.map { max(0, $0.timeIntervalSinceNow) }
        status.stopAfter = snapshot.stopsAfterCurrent ? true : nil
        status.sleepAtChapterEnd = snapshot.sleepsAtChapterEnd ? true : nil
        status.silenceSkipped = snapshot.silenceSkipped > 0 ? snapshot.silenceSkipped : nil
        status.failure = snapshot.failure
        if let scrobbling = scrobbler?.report() {
            status.listensWaiting = UInt32(clamping: scrobbling.waiting)
            status.scrobbleProblem = scrobbling.problem
        }
        if let current = snapshot.current {
            let tags = current.metadata.tags
            status.url = current.location.uri
            status.title = current.title
            status.artist = tags.artist ?? ""
            status.album = tags.album ?? ""
            if snapshot.status != .stopped { status.position = snapshot.seconds() }
            status.duration = snapshot.currentInfo?.duration ?? current.metadata.duration
            if snapshot.position.rate != 1 { status.speed = snapshot.position.rate }
            if snapshot.status != .stopped, !snapshot.chapters.isEmpty {
                status.chapters = snapshot.chapters.map { Manager1.Chapter(start: $0.start, title: $0.title) }
                status.chapter = snapshot.chapter.map { UInt32($0) }
            }
            if snapshot.status != .stopped, let info = snapshot.currentInfo {
                status.codec = info.codec.rawValue
                status.sampleRate = UInt32(clamping: info.format.sampleRate)
                status.channels = UInt32(clamping: info.format.channels)
                status.bits = UInt32(clamping: info.format.bitsPerSample)
                status.bitrate = info.bitrate.map { UInt32(clamping: $0) }
            }
            if snapshot.status != .stopped, snapshot.currentInfo?.isLive == true {
                status.live = true
                status.songTitle = snapshot.streamSong?.title
                status.songArtist = snapshot.streamSong?.artist
            }
        }
        do {
            let summary = try await library.summary(sources: [])
            status.libraryTracks = UInt32(clamping: summary.tracks)
            status.playlists = UInt32(clamping: summary.playlists)
        } catch {
            status.libraryProblem = "\(error)"
        }
        return status
    }

    /// The queue as the player's last snapshot has it, with how much of each track the cache
    /// holds (which the player follows for every queued track).
    func queue() -> [Manager1.QueuedTrack] {
        let snapshot = player.latest
        return snapshot.queue.entries.enumerated().map { index, entry in
            var track = Manager1.QueuedTrack(index: UInt32(index), url: entry.location.uri, title: entry.title,
                                             current: entry.id == snapshot.current?.id, artist: entry.metadata.tags.artist,
                                             duration: entry.metadata.duration)
            track.cached = snapshot.cached[entry.location]?.rawValue
            return track
        }
    }

    func sources() async throws -> [Manager1.Source] {
        let configured = await loader.sources.all
        let summary = try? await library.summary(sources: configured.map(\.name))
        var statuses: [String: String] = [:]
        for source in configured { statuses[source.name] = await source.status }
        return configured.map { source in
            let counts = summary?.sources.first { $0.name == source.name }
            return Manager1.Source(name: source.name, type: type(of: source).typeName, url: source.shownLocation,
                                   tracks: UInt32(clamping: counts?.tracks ?? 0), gone: UInt32(clamping: counts?.gone ?? 0),
                                   lastScan: counts?.lastScan.map { Int64($0.timeIntervalSince1970) } ?? -1,
                                   problems: [statuses[source.name], counts?.problems].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: "\n"))
        }
    }

    /// Refuses a chapter jump the current track cannot make, saying why (the player itself would
    /// ignore it without a word).
    static func check(_ jump: ChapterJump, in snapshot: PlayerSnapshot) throws {
        let chapters = snapshot.chapters
        guard snapshot.status != .stopped, snapshot.current != nil else { throw ManagerError.invalid("nothing is playing") }
        guard !chapters.isEmpty else { throw ManagerError.invalid("the track playing has no chapters") }
        if case .index(let index) = jump, !chapters.indices.contains(index) {
            throw ManagerError.invalid("there is no chapter \(index + 1): the track has \(chapters.count)")
        }
    }

    /// Refuses a seek past the end of the track playing, saying so: the player would end the
    /// track there and play the next without a word. (MPRIS's SetPosition ignores one, as its
    /// specification says.)
    static func check(seek seconds: Double, in snapshot: PlayerSnapshot) throws {
        guard let length = snapshot.currentInfo?.duration, seconds > length else { return }
        throw ManagerError.invalid("\(ClockDuration.text(seconds)) is past the end of the track (\(ClockDuration.text(length)))")
    }

    /// What a `Control` call asks of the player.
    static func playerCommand(_ name: String, _ value: Double) throws -> PlayerCommand {
        let needsValue = ["seek", "skip", "volume", "sleep", "chapter", "speed"].contains(name)
        guard !needsValue || value.isFinite else { throw ManagerError.invalid("\(name) needs a number, not \(value)") }
        switch name {
        case "play": return .play
        case "pause": return .pause
        case "toggle": return .playPause
        case "stop": return .stop
        case "next": return .next
        case "previous": return .previous
        case "seek":
            guard value >= 0 else { throw ManagerError.invalid("seek needs a position of 0 seconds or more") }
            return .seek(to: value)
        case "skip": return .skip(by: value)
        case "volume":
            guard value >= 0, value <= 1.5 else { throw ManagerError.invalid("the volume goes from 0% to 150% (0 to 1.5)") }
            return .setVolume(value)
        case "sleep":
            guard value >= 0, value <= 7 * 86400 else { throw ManagerError.invalid("a sleep timer runs from 0 (off) to 7 days") }
            return .sleep(at: value == 0 ? nil : Date(timeIntervalSinceNow: value))
        case "speed":
            guard PlaybackSettings.speeds.contains(value) else {
                throw ManagerError.invalid("the speed goes from 0.5 to 3 (1 plays at the recorded pace)")
            }
            return .setSpeed(value)
        case "stop-after":
            return .stopAfterCurrent(value != 0)
        case "sleep-chapter":
            return .sleepAtChapterEnd(value != 0)
        case "chapter-next": return .chapter(.next)
        case "chapter-previous": return .chapter(.previous)
        case "chapter":
            guard value >= 1, value <= 100_000, value.rounded() == value else {
                throw ManagerError.invalid("chapter needs a chapter number from 1")
            }
            return .chapter(.index(Int(value) - 1))
        default:
            throw ManagerError.invalid("'\(name.prefix(40))' is not a control "
                + "(play, pause, toggle, stop, next, previous, seek, skip, volume, sleep, stop-after, sleep-chapter, chapter, chapter-next, chapter-previous, speed)")
        }
    }
}

import Model
import Playback

/// `status`, `currentsong`, `stats`, `clearerror`: answered from the last snapshot, never by
/// asking the player (so `status` costs a lock and some formatting).
package enum StatusCommands: MPDCommandFamily {
    package static let commands: [String: MPDCommand] = [
        "status": MPDCommand(.read) { call in status(&call) },
        "currentsong": MPDCommand(.read) { call in
            let state = call.context.current
            guard let song = current(state, library: call.context.library) else { return }
            call.write(song)
        },
        "stats": MPDCommand(.read) { call in
            let statistics = await call.context.library.statistics()
            let state = call.context.current
            call.response.field("uptime", Int(state.uptime))
            call.response.field("playtime", Int(state.playtime()))
            call.response.field("artists", statistics.artists)
            call.response.field("albums", statistics.albums)
            call.response.field("songs", statistics.songs)
            call.response.field("db_playtime", Int(statistics.playtime.rounded()))
            if let updated = statistics.updated { call.response.field("db_update", updated) }
        },
        "clearerror": MPDCommand(.control) { call in
            call.context.update { $0.clearedFailure = $0.snapshot.failure }
            call.context.idle.notify([.player])
        },
        // One partition, MPD's `default`, that every client is in (Cantata lists them at start).
        "listpartitions": MPDCommand(.read) { call in call.response.field("partition", "default") },
        "partition": MPDCommand(.read, arguments: 1...1) { call in
            guard call.arguments[0] == "default" else { throw MPDError(.noExist, "partition does not exist") }
        },
        // Client-to-client channels: none (no client here subscribes to one).
        "channels": MPDCommand(.read) { _ in },
    ]

    /// The current song as a queued one (`Pos`, `Id`), with its decoded format once it plays.
    static func current(_ state: MPDState, library: any MPDLibrary) -> MPDSong? {
        let snapshot = state.snapshot
        guard let entry = snapshot.current, let position = snapshot.queue.index(of: entry.id) else { return nil }
        let queued = snapshot.queue.entries[position]
        return MPDSong(uri: library.songURI(of: queued.location), metadata: queued.metadata,
                       format: snapshot.currentInfo?.format, position: position, id: queued.id)
    }

    /// MPD 0.23's fields, in its order (`handle_status`).
    private static func status(_ call: inout MPDCall) {
        let state = call.context.current
        let snapshot = state.snapshot
        let queue = snapshot.queue
        var response = MPDResponse()
        response.field("volume", MPDVolume.percent(snapshot.volume))
        response.field("repeat", queue.loop == .none ? "0" : "1")
        response.field("random", queue.shuffle ? "1" : "0")
        response.field("single", MPDOptions.single(snapshot))
        response.field("consume", "0")
        response.field("partition", "default")
        response.field("playlist", state.queueVersion)
        response.field("playlistlength", queue.entries.count)
        response.field("mixrampdb", "0")
        response.field("state", MPDOptions.state(snapshot))
        let current = snapshot.current.flatMap { entry in queue.index(of: entry.id).map { ($0, entry.id) } }
        if case let (position, id)? = current {
            response.field("song", position)
            response.field("songid", id)
        }
        if snapshot.status != .stopped {
            let elapsed = snapshot.seconds()
            let duration = snapshot.currentInfo?.duration ?? snapshot.current?.metadata.duration
            response.field("time", "\(Int(elapsed.rounded())):\(Int((duration ?? 0).rounded()))")
            response.field("elapsed", seconds: elapsed)
            response.field("bitrate", snapshot.currentInfo?.bitrate ?? 0)
            if let duration { response.field("duration", seconds: duration) }
            if let format = snapshot.currentInfo?.format { response.field("audio", MPDSong.format(format)) }
        }
        if let job = call.context.library.updatingJob { response.field("updating_db", job) }
        if let error = state.error { response.field("error", error) }
        if case let (_, id)? = current, let next = queue.entry(after: id), let position = queue.index(of: next.id) {
            response.field("nextsong", position)
            response.field("nextsongid", next.id)
        }
        call.response.append(response)
    }
}

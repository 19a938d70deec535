/// The queue's older and smaller edits: `swap`, `swapid`, and `playlist` (deprecated in MPD,
/// still sent by old clients and scripts: each entry as `POS:file: URI`).
package enum QueueOrderCommands: MPDCommandFamily {
    package static let commands: [String: MPDCommand] = [
        "swap": MPDCommand(.control, arguments: 2...2) { call in
            let entries = call.context.snapshot.queue.entries
            let (a, b) = (try call.int(0), try call.int(1))
            guard entries.indices.contains(a), entries.indices.contains(b) else { throw MPDError.badSongIndex }
            await swap(a, b, call)
        },
        "swapid": MPDCommand(.control, arguments: 2...2) { call in
            let queue = call.context.snapshot.queue
            guard let a = queue.index(of: UInt64(try call.unsigned(0))), let b = queue.index(of: UInt64(try call.unsigned(1))) else {
                throw MPDError.noSuchSong
            }
            await swap(a, b, call)
        },
        "playlist": MPDCommand(.read) { call in
            let entries = call.context.current.snapshot.queue.entries
            for (position, entry) in entries.enumerated() {
                call.response.line("\(position):file: \(call.context.library.songURI(of: entry.location))")
                try await call.response.flushIfLarge()
            }
        },
    ]

    /// The entries at `a` and `b` trade places, by two moves: the later one to the earlier
    /// place, then the earlier one (one place on since) to the later.
    private static func swap(_ a: Int, _ b: Int, _ call: MPDCall) async {
        let (low, high) = (min(a, b), max(a, b))
        guard low != high else { return }
        let entries = call.context.snapshot.queue.entries
        await call.context.perform(.move(entries[high].id, to: low))
        await call.context.perform(.move(entries[low].id, to: high))
    }
}

import Model
import Playback

/// The queue ("the current playlist" in MPD's words): listing it (`playlistinfo`, `playlistid`,
/// `plchanges`, `plchangesposid`) from the last snapshot, and changing it (`add`, `addid`,
/// `delete`, `deleteid`, `clear`, `move`, `moveid`, `shuffle`) through the player — additions
/// through `QueueIntake`, as MPRIS's.
package enum QueueCommands: MPDCommandFamily {
    package static let commands: [String: MPDCommand] = [
        "playlistinfo": MPDCommand(.read, arguments: 0...1) { call in
            let state = call.context.current
            let count = state.snapshot.queue.entries.count
            var positions = 0..<count
            if call.argument(0) != nil {
                let asked = try call.range(0)
                guard asked.lowerBound < count || (asked.isEmpty && asked.lowerBound == count) else { throw MPDError.badSongIndex }
                positions = asked.clamped(to: 0..<count)
            }
            try await list(positions, of: state, into: &call)
        },
        "playlistid": MPDCommand(.read, arguments: 0...1) { call in
            let state = call.context.current
            let queue = state.snapshot.queue
            guard call.argument(0) != nil else { return try await list(queue.entries.indices, of: state, into: &call) }
            guard let position = queue.index(of: UInt64(try call.unsigned(0))) else { throw MPDError.noSuchSong }
            try await list(position..<position + 1, of: state, into: &call)
        },
        "plchanges": MPDCommand(.read, arguments: 1...2) { call in
            let (state, positions) = try changed(call)
            for position in positions {
                call.write(song(at: position, of: state, library: call.context.library))
                try await call.response.flushIfLarge()
            }
        },
        "plchangesposid": MPDCommand(.read, arguments: 1...2) { call in
            let (state, positions) = try changed(call)
            for position in positions {
                call.response.field("cpos", position)
                call.response.field("Id", state.snapshot.queue.entries[position].id)
            }
        },
        "add": MPDCommand(.add, arguments: 1...2) { call in _ = try await add(&call) },
        "addid": MPDCommand(.add, arguments: 1...2) { call in
            guard let id = try await add(&call).first else { throw MPDError(.noExist, "No such song") }
            call.response.field("Id", id)
        },
        "delete": MPDCommand(.control, arguments: 1...1) { call in
            let entries = call.context.snapshot.queue.entries
            let positions = try call.range(0)
            guard positions.lowerBound < entries.count, positions.upperBound <= entries.count || positions.upperBound == Int.max else {
                throw MPDError.badSongIndex
            }
            for entry in entries[positions.clamped(to: entries.indices)] { await call.context.perform(.remove(entry.id)) }
        },
        "deleteid": MPDCommand(.control, arguments: 1...1) { call in
            await call.context.perform(.remove(try PlaybackCommands.entry(id: try call.unsigned(0), call).id))
        },
        "clear": MPDCommand(.control) { call in
            await call.context.perform(.replaceQueue([], play: false))
        },
        "move": MPDCommand(.control, arguments: 2...2) { call in
            let entries = call.context.snapshot.queue.entries
            let positions = try call.range(0)
            guard positions.lowerBound < entries.count, positions.upperBound <= entries.count || positions.upperBound == Int.max else {
                throw MPDError.badSongIndex
            }
            let moved = Array(entries[positions.clamped(to: entries.indices)])
            let target = try destination(call, count: entries.count, moving: moved.count)
            for (offset, entry) in moved.enumerated() { await call.context.perform(.move(entry.id, to: target + offset)) }
        },
        "moveid": MPDCommand(.control, arguments: 2...2) { call in
            let entry = try PlaybackCommands.entry(id: try call.unsigned(0), call)
            let target = try destination(call, count: call.context.snapshot.queue.entries.count, moving: 1)
            await call.context.perform(.move(entry.id, to: target))
        },
        "shuffle": MPDCommand(.control, arguments: 0...1) { call in
            let positions = call.argument(0) == nil ? 0..<Int.max : try call.range(0)
            await call.context.perform(.shuffleQueue(positions))
        },
    ]

    /// The songs at `positions`, streamed (a long queue is not held twice).
    private static func list(_ positions: Range<Int>, of state: MPDState, into call: inout MPDCall) async throws {
        for position in positions {
            call.write(song(at: position, of: state, library: call.context.library))
            try await call.response.flushIfLarge()
        }
    }

    static func song(at position: Int, of state: MPDState, library: any MPDLibrary) -> MPDSong {
        let snapshot = state.snapshot
        let entry = snapshot.queue.entries[position]
        let format = snapshot.current?.id == entry.id ? snapshot.currentInfo?.format : nil
        return MPDSong(uri: library.songURI(of: entry.location), metadata: entry.metadata, format: format, position: position, id: entry.id)
    }

    /// `plchanges VERSION [START:END]`: the positions of entries changed after VERSION.
    private static func changed(_ call: MPDCall) throws(MPDError) -> (MPDState, Range<Int>) {
        let state = call.context.current
        let version = try call.int(0)
        let entries = state.snapshot.queue.entries
        var window = entries.indices
        if call.argument(1) != nil { window = try call.range(1).clamped(to: entries.indices) }
        return (state, (state.firstChange(since: version)..<entries.count).clamped(to: window))
    }

    /// `move`'s and `moveid`'s TO: a position, or `+N`/`-N` from the current song.
    private static func destination(_ call: MPDCall, count: Int, moving: Int) throws(MPDError) -> Int {
        let text = call.arguments[1]
        let offset = try call.int(1)
        var target = offset
        if text.hasPrefix("+") || text.hasPrefix("-") {
            let snapshot = call.context.snapshot
            guard let current = snapshot.current, let position = snapshot.queue.index(of: current.id) else {
                throw MPDError(.playerSync, "No current song")
            }
            target = position + offset + (text.hasPrefix("+") ? 1 : 0)
        }
        guard target >= 0, target + moving <= count else { throw MPDError.badSongIndex }
        return target
    }
}

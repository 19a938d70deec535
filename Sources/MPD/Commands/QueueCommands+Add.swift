import FoundationEssentials
import Model
import Playback

/// `add URI [POSITION]` and `addid`: a URL (http, https, file, cloudplayer) as it is, a song of
/// the library by its MPD URI, or a library folder — everything under it.
extension QueueCommands {
    /// Queues what the call's URI names where it asks; returns the new entries.
    static func add(_ call: MPDCall) async throws -> [QueueEntry] {
        let context = call.context
        let uri = call.arguments[0]
        let placement = try placement(call)
        let items: [QueueItem]
        do {
            if let scheme = URL(string: uri)?.scheme?.lowercased(), QueueIntake.schemes.contains(scheme) {
                items = try await context.intake.items(for: [uri], idsTaken: false)
            } else if let reference = await context.library.reference(forSongURI: uri) {
                items = try await context.intake.items(for: [reference])
            } else if let folder = try await context.library.tracks(under: uri) {
                items = folder
            } else {
                throw MPDError(.noExist, "No such directory")
            }
            guard !items.isEmpty else { return [] }
            let before = Set(context.snapshot.queue.entries.map(\.id))
            let after = try await context.intake.add(items, at: placement)
            context.take(after)
            return after.queue.entries.filter { !before.contains($0.id) }
        } catch let refusal as QueueRefusal {
            throw refusal.mpdError
        }
    }

    /// `add`'s POSITION: absolute, or `+N`/`-N` around the current song (MPD 0.23); none: the end.
    private static func placement(_ call: MPDCall) throws(MPDError) -> PlayQueue.Placement {
        guard let text = call.argument(1) else { return .end }
        let entries = call.context.snapshot.queue.entries
        var index = try call.int(1)
        if text.hasPrefix("+") || text.hasPrefix("-") {
            let snapshot = call.context.snapshot
            guard let current = snapshot.current, let position = snapshot.queue.index(of: current.id) else {
                throw MPDError(.playerSync, "No current song")
            }
            index = text.hasPrefix("+") ? position + 1 + index : position + index
        }
        guard index >= 0, index <= entries.count else { throw MPDError.badSongIndex }
        return index == 0 ? .start : .after(entries[index - 1].id)
    }
}

extension QueueRefusal {
    /// The refusal as MPD's error: a full queue is `ACK [51@n]` (playlist too large), the rest
    /// say what was wrong with the URI.
    var mpdError: MPDError {
        switch self {
        case .full: MPDError(.playlistMax, "Playlist is too large: \(description)")
        case .notALocation, .cannotPlay: MPDError(.noExist, description)
        case .nothingNamed, .tooMany, .credentials: MPDError(.argument, description)
        }
    }
}

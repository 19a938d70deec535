import FoundationEssentials
import Model
import Playback

/// `add URI [POSITION]` and `addid`: a URL (http, https, file, cloudplayer) as it is, a song of
/// the library by its MPD URI, or a library folder — everything under it. A stranger's URL is
/// held to what strangers may name (`QueueIntake.strangersLocation`); the library's songs are
/// the library's, whoever names them.
extension QueueCommands {
    /// Queues what the call's URI names where it asks; returns the ids of the new entries. In a
    /// command list an `add` to the end is kept with the list's others (`MPDSession.deferredAdds`)
    /// and they are queued together, as one change, when the list ends or another command comes.
    static func add(_ call: inout MPDCall) async throws -> Range<QueueEntry.ID> {
        let context = call.context
        try call.checkScheme(call.arguments[0])
        let placement = try placement(call)
        do {
            if placement == .end, call.name == "add", var deferred = call.session.deferredAdds {
                call.session.deferredAdds = nil  // `deferred` alone holds the list's adds: appended in place
                defer { call.session.deferredAdds = deferred }
                try await keep(call, in: &deferred)
                return 0..<0
            }
            let items = try await items(call, filling: true)
            guard !items.isEmpty else { return 0..<0 }
            let after = try await context.intake.add(items, at: placement)
            context.take(after)
            return after.queue.lastAddedIDs
        } catch let refusal as QueueRefusal {
            throw refusal.mpdError
        }
    }

    /// A command list's add, kept with the list's others (`MPDDeferredAdds`): a song of the
    /// library by its location, looked up with the others when they are queued; anything else
    /// as the single add takes it. The queue's limits are checked now, so the ACK names this add.
    private static func keep(_ call: MPDCall, in deferred: inout MPDDeferredAdds) async throws {
        let uri = call.arguments[0]
        let isURL = URL(string: uri)?.scheme.map { QueueIntake.schemes.contains($0.lowercased()) } ?? false
        if !isURL, !(uri.hasPrefix("/") && call.session.requester == .stranger) {
            if deferred.locate == nil { deferred.locate = await call.context.library.songLocations() }
            if let location = deferred.locate?(uri) {
                deferred.appendSong(at: location)
            } else {
                deferred.append(try await items(call, filling: false))
            }
        } else {
            deferred.append(try await items(call, filling: false))
        }
        if let overflow = call.context.snapshot.queue.overflow(adding: deferred.count, bytes: deferred.bytes) {
            deferred.dropLast()
            throw QueueRefusal.full(overflow)
        }
    }

    /// What the call's URI names, as queue items (`filling`: with what the library knows of a URL).
    private static func items(_ call: MPDCall, filling: Bool) async throws -> [QueueItem] {
        let context = call.context
        let uri = call.arguments[0]
        if let scheme = URL(string: uri)?.scheme?.lowercased(), QueueIntake.schemes.contains(scheme) {
            return try await context.intake.items(for: [uri], idsTaken: false, by: call.session.requester, filling: filling)
        }
        // An absolute path is a file of this machine to MPD: never a stranger's to name.
        if uri.hasPrefix("/"), call.session.requester == .stranger { throw QueueRefusal.accessDenied }
        if let reference = await context.library.reference(forSongURI: uri) {
            return try await context.intake.items(for: [reference], filling: filling)
        }
        if let folder = try await context.library.tracks(under: uri) { return folder }
        throw MPDError(.noExist, "No such directory")
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
        case .accessDenied: MPDError(.permission, description)
        }
    }
}

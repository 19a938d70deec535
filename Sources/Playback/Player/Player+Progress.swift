import FoundationEssentials
import Model

/// What is kept of a play: where a long track was left (for the library) and whether the play
/// became a listen (for the track's source and the scrobbler).
extension Player {
    /// Notes where a long track was left, or that it was heard to its end, in its queue entry
    /// and — through the event — in the library.
    func noteProgress(of id: QueueEntry.ID, at seconds: Double, ended: Bool = false) {
        guard let entry = state.queue.entry(id: id), let metadata = settings.progress(of: entry, at: seconds, ended: ended) else { return }
        state.queue.update(id, metadata: metadata)
        publish(.progressChanged(state.queue.entry(id: id) ?? entry))
    }

    /// Playback of `entry` is at `seconds`: once half of it, or four minutes, has been heard in
    /// this play, it is a listen — told to its source (without waiting) and to the listeners.
    func noteHeard(_ entry: QueueEntry, at seconds: Double) {
        let known = state.queue.entry(id: entry.id) ?? entry
        guard let startedAt = listens.heard(entry.id, upTo: seconds, duration: known.metadata.duration) else { return }
        Task { [loader] in await loader.played(entry.location, heard: true) }
        publish(.listened(known, startedAt: startedAt))
    }

    /// Counts what was heard of the current track up to now, before playback pauses, stops or
    /// moves elsewhere.
    func noteHeardSoFar() {
        guard state.status != .stopped, let current = state.current else { return }
        noteHeard(current, at: state.seconds())
    }
}

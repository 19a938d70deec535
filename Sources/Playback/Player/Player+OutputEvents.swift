import FoundationEssentials
import Model
import Output

/// What the output hears: the moments a track starts and ends for the listener, and the output's
/// own end or failure.
extension Player {
    func handle(_ event: OutputEvent) async {
        switch event {
        case .trackStarted(let entry, let info, let startFrame):
            await trackStarted(entry, info, seconds: Double(startFrame) / Double(info.format.sampleRate), fromStart: startFrame == 0)
        case .trackEnded(let entry, let seconds):
            noteProgress(of: entry.id, at: .infinity, ended: true)
            noteHeard(entry, at: seconds)
            publish(.trackEnded(entry))
            if state.stopsAfterCurrent || state.sleepsAtChapterEnd, entry.id == state.current?.id { await stopAfter(entry) }
        case .streamTagsHeard(let entry, let tags):
            guard entry.id == state.current?.id else { return }
            state.streamSong = tags
            logger.info("station song", metadata: ["entry": "\(entry.id)", "song": "\([tags.artist, tags.title].compactMap { $0 }.joined(separator: " - "))"])
            publish(.streamSongChanged(tags))
        case .silenceSkipped(let entry, let seconds):
            // A jump ahead by what was left out, as clients are told (Seeked); counted as saved.
            guard entry.id == state.current?.id else { return }
            state.silenceSkipped += seconds
            state.position.seconds += seconds
            publish(.seeked(seconds: state.seconds()))
        case .trackRejected(let entry, let error):
            failed(entry, error)
        case .finished:
            await stopPipeline()
            publish(.queueFinished)
        case .failed(OutputError.serverLost(let reason)):
            await holdForSoundServer(OutputError.serverLost(reason))
        case .failed(let error):
            await stopPipeline()  // also stops the decoder, which the output no longer drains
            publish(.outputFailed(error))
        }
    }

    private func trackStarted(_ entry: QueueEntry, _ info: TrackInfo, seconds: Double, fromStart: Bool) async {
        // The track it was already (after a seek, or again in a track loop): only the position is new.
        let again = entry.id == state.current?.id && state.currentInfo != nil
        if !again {
            let known = state.queue.entry(id: entry.id)?.metadata ?? entry.metadata
            state.queue.setCurrent(entry)
            state.queue.update(entry.id, metadata: known.filled(from: TrackMetadata(tags: info.tags, duration: info.duration)))
            state.artwork = nil
            state.streamSong = nil
            state.streamStalled = false
            var decoded = info
            decoded.tags = TrackTags()
            state.currentInfo = decoded
            logger.info("now playing", metadata: ["entry": "\(entry.id)", "track": "\(entry.displayName)",
                                                   "codec": "\(info.codec.rawValue)", "format": "\(info.format)"])
        }
        // A new play: another track, or this one again from its very start (a loop, Previous).
        let newPlay = !again || fromStart
        // A station's songs are not listens: what is heard of them, and how long they are, is unknown.
        let started = info.isLive ? nil : listens.started(entry.id, at: seconds, newPlay: newPlay)
        if newPlay { Task { [loader] in await loader.played(entry.location, heard: false) } }
        state.position = anchor(at: seconds, moving: state.status == .playing)
        state.failure = nil
        publish(.trackStarted(state.current ?? entry, state.currentInfo ?? info, seconds: seconds))
        if let started { publish(.listenStarted(state.current ?? entry, at: started)) }
        guard !again else { return }
        // A new track that does not start at its start (where a long one was left): clients
        // that follow the position are told it jumped.
        if seconds > 0 { publish(.seeked(seconds: seconds)) }
        if let following = state.queue.entry(after: entry.id, automatically: true) {
            Task { [loader] in await loader.prefetch(following.location) }
        }
        if info.chapters.isEmpty, let url = (state.current ?? entry).metadata.chaptersURL {
            // A feed's chapters file, as trusted as the episode it came with.
            let location = TrackLocation(uri: url).named(by: entry.location.namedBy)
            Task { [loader, mailbox] in
                if let chapters = await loader.chapters(at: location) { mailbox.yield(.sourceChapters(entry, chapters)) }
            }
        }
        guard let art = info.tags.artwork else {
            // None in the file: the source may keep one (fetched without holding up the player).
            Task { [loader, mailbox] in
                if let file = await loader.sourceArtwork(of: entry.location) { mailbox.yield(.sourceArtwork(entry, file)) }
            }
            return
        }
        do {
            let file = try await loader.storeArtwork(art)
            guard state.current?.id == entry.id else { return }
            state.artwork = file
            publish(.artworkReady(entry, file))
        } catch {
            logger.notice("cover art not stored", metadata: ["track": "\(entry.displayName)", "reason": "\(error)"])
        }
    }
}

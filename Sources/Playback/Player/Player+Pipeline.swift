import FoundationEssentials
import Model

/// Jumps: stopping the pipeline and starting a new one at another place, and what its reports
/// mean for the state.
extension Player {
    /// Starts a pipeline that plays from `entry` at `seconds` on through the queue, and publishes
    /// the jump: another current entry, or a seek within this one.
    /// A paused player stays paused (the output keeps its pause across streams); a stopped one
    /// starts paused when asked (`cue`).
    func start(_ entry: QueueEntry, at requested: Double, paused: Bool = false) async {
        // The same entry again (a seek) keeps what its decoder learnt, and its tags are not read
        // again. Once stopped it is a new play: a long track starts where it was left.
        let sameEntry = state.status != .stopped && entry.id == state.current?.id && state.currentInfo != nil
        if !sameEntry, state.status != .stopped, let left = state.current { noteProgress(of: left.id, at: state.seconds()) }
        noteHeardSoFar()
        await teardown()
        if state.status == .stopped { await output.setPaused(paused) }
        // A station taken up while paused (Next while paused) has a fresh buffer from now on.
        if state.status == .paused { pausedAt = .now }
        // Played afresh, a long track starts where it was left.
        let seconds = !sameEntry && requested == 0 ? settings.resumePoint(of: entry) ?? 0 : requested
        if !sameEntry {
            state.currentInfo = nil
            state.artwork = nil
        }
        state.queue.setCurrent(entry)
        // Where the new pipeline starts, until the output plays its first frame: a seek's
        // target is the position at once, not only once audio arrives.
        state.position = anchor(at: seconds)
        publish(sameEntry ? .seeked(seconds: seconds) : .currentChanged(state.current))
        if soundServerWait != nil {
            // No sound server: only the place moves; the pipeline is built once it is back.
            if state.status == .stopped {
                resumeWhenBack = !paused
                set(.paused)
            }
            return
        }
        logger.debug("pipeline starts", metadata: ["entry": "\(entry.id)", "track": "\(entry.displayName)", "seconds": "\(seconds)"])
        let generation = self.generation
        let plan = self.plan
        pipeline = Pipeline.start(plan.step(entry, at: seconds, readingTags: !sameEntry), plan: plan,
                                  loader: loader, decoder: decoder, output: output) { [mailbox] in
            mailbox.yield(.pipeline($0, generation: generation))
        }
        if state.status == .stopped { set(paused ? .paused : .playing) }
    }

    /// Stops: no pipeline, no pause kept for the next stream, the position back at 0.
    func stopPipeline() async {
        if state.status != .stopped, let current = state.current { noteProgress(of: current.id, at: state.seconds()) }
        noteHeardSoFar()
        await teardown()
        stopWaitingForSoundServer()  // stopped: the next Play finds out afresh
        resumeWhenBack = false
        state.sleepsAtChapterEnd = false  // there is no chapter to end
        await output.setPaused(false)
        state.position = anchor(at: 0)
        set(.stopped)
    }

    func teardown() async {
        generation += 1
        state.streamStalled = false
        if let pipeline {
            self.pipeline = nil
            await pipeline.stop()
        }
        await output.reset()
    }

    /// A report of the current pipeline.
    func handle(_ event: PipelineEvent) async {
        switch event {
        case .output(let event):
            await handle(event)
        case .trackFailed(let entry, let error):
            state.streamStalled = false  // a station that gave up waits no more
            // At the journal's default level, as MPD logs "Failed to decode": a track skipped in
            // silence (a wrong password, a file gone) left the user no word of why.
            logger.notice("track failed", metadata: ["entry": "\(entry.id)", "track": "\(entry.displayName)", "reason": "\(error)"])
            failed(entry, error)
        case .buffering(let entry, let waiting):
            // Bytes again: the output may have run dry meanwhile, so take its word for where it is.
            if !waiting { await checkPosition(announce: false) }
            state.streamStalled = waiting && entry.id == state.current?.id && state.currentInfo?.isLive == true
            publish(.buffering(entry, waiting))
        }
    }
}

extension Player {
    /// A track could not play: kept as the snapshot's `failure` until a track starts, and told.
    func failed(_ entry: QueueEntry, _ error: any Error) {
        state.failure = "\(entry.displayName): \(error)"
        publish(.trackFailed(entry, error))
    }
}

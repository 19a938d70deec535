import Model

/// Chapters (an audiobook's): which one is heard — kept in the state, and announced when playing
/// goes on into the next — and jumps between them.
extension Player {
    /// Previous within this many seconds of a chapter's start goes to the chapter before (as
    /// Previous does with tracks, and podcast apps with chapters); later, to this one's start.
    package static let chapterRestartWindow = 3.0

    /// The chapter heard now, as the state says: nil without chapters, before the first, or stopped.
    func chapterHeard() -> Int? {
        let chapters = state.chapters
        guard !chapters.isEmpty, state.status != .stopped else { return nil }
        return chapters.index(at: state.seconds())
    }

    /// The clock says the next chapter should be heard now: announced if so — or, with the sleep
    /// timer set to the chapter's end, paused at its start.
    func noteChapter() async {
        let index = chapterHeard()
        guard index != chapterAnnounced else {
            armChapterClock()
            return
        }
        let playedOn = index ?? -1 > chapterAnnounced ?? -1
        chapterAnnounced = index
        if state.sleepsAtChapterEnd, state.status == .playing, let index, playedOn {
            state.sleepsAtChapterEnd = false
            await execute(.pause)
            await execute(.seek(to: state.chapters[index].start))
            logger.notice("sleep timer: paused at the end of the chapter", metadata: ["chapter": "\(index)"])
            return publish(.timersChanged)
        }
        publish(.chapterChanged(index.map { state.chapters[$0] }, index: index))
    }

    /// The heard chapter changed: its own picture, if it has one, is made a local file and shown
    /// (`chapterArtwork`); until then, and for a chapter without one, the track's cover.
    func showChapterArtwork() {
        state.chapterArtwork = nil
        guard let index = state.chapter, let art = state.chapters[index].art, let entry = state.current else { return }
        Task { [loader, mailbox] in
            if let file = await loader.chapterArtwork(art, namedBy: entry.location.namedBy) {
                mailbox.yield(.chapterArtwork(entry.id, index: index, file))
            }
        }
    }

    /// `sleep chapter`: pauses where the next chapter starts, or, in the last chapter, stops
    /// after the track. Replaces a timer by the clock. Chapters not known yet — a track not yet
    /// open (the daemon just restarted), a feed's chapters still on their way, a track without
    /// any — keep the wish as it is: the next chapter's start pauses, and the track's end, which
    /// ends its last chapter, stops (`plan`, `trackEnded`).
    func sleepAtChapterEnd(_ on: Bool) {
        guard on else {
            guard state.sleepsAtChapterEnd else { return }
            state.sleepsAtChapterEnd = false
            return publish(.timersChanged)
        }
        guard state.status != .stopped, state.current != nil else { return }
        let chapters = state.chapters
        let next = state.chapter.map { $0 + 1 } ?? 0
        state.sleepAt = nil
        armSleepTimer()
        if chapters.isEmpty || (next < chapters.count && chapters[next].start < state.currentInfo?.duration ?? .infinity) {
            state.sleepsAtChapterEnd = true
        } else {
            state.stopsAfterCurrent = true
        }
        publish(.timersChanged)
    }

    /// While the position moves through a track with chapters: a wake-up at the next one's start
    /// (by the clock the position is interpolated with; a jump or correction arms it anew).
    func armChapterClock() {
        chapterClock?.cancel()
        chapterClock = nil
        let chapters = state.chapters
        // From the last announced: one another event already put in the state is still noticed.
        let next = chapterAnnounced.map { $0 + 1 } ?? 0
        // A chapter the tags place past the end the decoder found is never reached.
        guard state.position.moving, state.status == .playing, next < chapters.count,
              chapters[next].start < state.currentInfo?.duration ?? .infinity else { return }
        let wait = max(0, chapters[next].start - state.seconds())
        chapterClock = Task { [mailbox] in
            try? await Task.sleep(for: .seconds(wait))
            if !Task.isCancelled { mailbox.yield(.checkChapter) }
        }
    }

    /// A chapter jump: a seek to a chapter's start; Next from the last chapter is the next track,
    /// Previous at the start of the first the previous one, as with tracks.
    func jumpToChapter(_ jump: ChapterJump) async {
        guard state.status != .stopped, !state.chapters.isEmpty, let entry = state.current else { return }
        let heard = await position()
        // The track may have ended while the output was asked: the jump was for that one.
        guard state.current?.id == entry.id, heard.map({ $0.entry.id == entry.id }) ?? true else { return }
        let chapters = state.chapters
        let now = heard?.seconds ?? state.seconds()
        let current = chapters.index(at: now)
        switch jump {
        case .next:
            let next = current.map { $0 + 1 } ?? 0
            await execute(next < chapters.count ? .seek(to: chapters[next].start) : .next)
        case .previous:
            // Before the first chapter, the track's start counts as one.
            let backOne = now - (current.map { chapters[$0].start } ?? 0) <= Self.chapterRestartWindow
            switch (current, backOne) {
            case (nil, false): await execute(.seek(to: 0))
            case (let index?, false): await execute(.seek(to: chapters[index].start))
            case (let index?, true) where index > 0: await execute(.seek(to: chapters[index - 1].start))
            default: await execute(.previous)
            }
        case .index(let index):
            guard chapters.indices.contains(index) else { return }
            await execute(.seek(to: chapters[index].start))
        }
    }
}

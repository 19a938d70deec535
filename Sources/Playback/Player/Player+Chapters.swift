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

    /// The clock says the next chapter should be heard now: announced if so.
    func noteChapter() {
        let index = chapterHeard()
        guard index != state.chapter else {
            armChapterClock()
            return
        }
        publish(.chapterChanged(index.map { state.chapters[$0] }, index: index))
    }

    /// While the position moves through a track with chapters: a wake-up at the next one's start
    /// (by the clock the position is interpolated with; a jump or correction arms it anew).
    func armChapterClock() {
        chapterClock?.cancel()
        chapterClock = nil
        let chapters = state.chapters
        let next = state.chapter.map { $0 + 1 } ?? 0
        guard state.position.moving, state.status == .playing, next < chapters.count else { return }
        let wait = max(0, chapters[next].start - state.seconds())
        chapterClock = Task { [mailbox] in
            try? await Task.sleep(for: .seconds(wait))
            if !Task.isCancelled { mailbox.yield(.checkChapter) }
        }
    }

    /// A chapter jump: a seek to a chapter's start (Next from the last chapter: the next track).
    func jumpToChapter(_ jump: ChapterJump) async {
        let chapters = state.chapters
        guard state.status != .stopped, !chapters.isEmpty else { return }
        let now = await position()?.seconds ?? state.seconds()
        let current = chapters.index(at: now)
        switch jump {
        case .next:
            let next = current.map { $0 + 1 } ?? 0
            await execute(next < chapters.count ? .seek(to: chapters[next].start) : .next)
        case .previous:
            guard let current else { return await execute(.seek(to: 0)) }
            let back = now - chapters[current].start <= Self.chapterRestartWindow && current > 0 ? current - 1 : current
            await execute(.seek(to: chapters[back].start))
        case .index(let index):
            guard chapters.indices.contains(index) else { return }
            await execute(.seek(to: chapters[index].start))
        }
    }
}

/// One chapter of a track (an audiobook's, a podcast episode's): where it starts and what it is
/// called. A track's chapters are in order of their starts, the first at 0 or later.
package struct Chapter: Sendable, Hashable {
    /// Seconds from the start of the track (of what is heard: after the encoder's delay).
    package var start: Double
    package var title: String
    /// Its own picture, if it has one.
    package var art: ChapterArt?

    package init(start: Double, title: String, art: ChapterArt? = nil) {
        self.start = start
        self.title = title
        self.art = art
    }
}

extension [Chapter] {
    /// Chapters from what a file says, made fit to steer by: in order of their starts, none
    /// before 0, past `duration` or at the same place as another (the first of such wins), and
    /// titles trimmed of control characters; at most `limit` (a forged list of millions is cut).
    package static func ordered(_ found: [Chapter], duration: Double?, limit: Int = 10_000) -> [Chapter] {
        var kept: [Chapter] = []
        for chapter in found.prefix(limit).enumerated().sorted(by: { ($0.element.start, $0.offset) < ($1.element.start, $1.offset) })
            .map(\.element) {
            guard chapter.start.isFinite, chapter.start >= 0, chapter.start < (duration ?? .infinity),
                  kept.last.map({ chapter.start - $0.start > 1e-6 }) ?? true else { continue }
            let title = String(String.UnicodeScalarView(chapter.title.unicodeScalars.filter { $0.properties.generalCategory != .control }))
            kept.append(Chapter(start: chapter.start, title: title, art: chapter.art))
        }
        return kept
    }

    /// The index of the chapter heard at `seconds`: the last that starts at or before it (a hair
    /// of rounding allowed, so a jump to a chapter's start lands in it); nil before the first.
    package func index(at seconds: Double) -> Int? {
        var low = 0, high = count
        while low < high {
            let middle = (low + high) / 2
            if self[middle].start <= seconds + 1e-6 { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? nil : low - 1
    }
}

import Model

/// ID3v2 chapters (the ID3v2 Chapter Frame Addendum, id3.org/id3v2-chapters-1.0): `CHAP` frames
/// — an element ID, start and end times in milliseconds, byte offsets, then frames of their own,
/// the title a `TIT2`, a picture an `APIC` — and `CTOC` frames that list them. MP3 podcasts carry them (Podlove,
/// Auphonic, Hindenburg write both). A top-level table of contents, when there is one, says which
/// chapters are the track's; otherwise every chapter counts. Order comes from the start times
/// (`[Chapter].ordered`), as podcast apps take it.
struct ID3ChapterFrames {
    /// More chapters than any episode has: what a forged tag can make us keep.
    static let maxChapters = 10_000

    private var chapters: [(id: String, chapter: Chapter)] = []
    /// The element IDs a top-level `CTOC` lists, if there is one.
    private var topLevel: Set<String>?

    /// The chapters found, in the file's order (the top-level table's, if it has one).
    var found: [Chapter] {
        guard let topLevel, chapters.contains(where: { topLevel.contains($0.id) }) else { return chapters.map(\.chapter) }
        return chapters.filter { topLevel.contains($0.id) }.map(\.chapter)
    }

    /// A `CHAP` frame's body; `major` is the tag's version, whose frame headers its own frames use.
    mutating func takeChapter(_ body: ArraySlice<UInt8>, major: UInt8) {
        guard chapters.count < Self.maxChapters else { return }
        let (id, rest) = ID3Text.terminated(body, encoding: 0)
        var reader = ByteReader(rest)
        // Start and end times, then start and end offsets (0xFFFFFFFF: unused); times are what count.
        guard let start = reader.u32be(), reader.skip(12) else { return }
        var title = ""
        var art: ChapterArt?
        var frames = reader
        while let frame = ID3v2Parser.nextFrame(&frames, major: major) {
            switch frame.header.id {
            case "TIT2", "TT2": if title.isEmpty { title = ID3Text.firstValue(ofTextFrame: frame.data) ?? "" }
            case "APIC", "PIC": art = art ?? ID3v2Parser.FrameCollector.picture(frame.data, legacy: frame.header.id == "PIC").map { .embedded($0.1) }
            default: break
            }
        }
        chapters.append((id, Chapter(start: Double(start) / 1000, title: title, art: art)))
    }

    /// A `CTOC` frame's body: an element ID, flags (0x02: top-level), the entry count, and the
    /// element IDs of its entries.
    mutating func takeTableOfContents(_ body: ArraySlice<UInt8>) {
        let (_, rest) = ID3Text.terminated(body, encoding: 0)
        var reader = ByteReader(rest)
        guard topLevel == nil, let flags = reader.u8(), flags & 0x02 != 0, let count = reader.u8() else { return }
        var entries = reader.rest()
        var ids = Set<String>()
        for _ in 0..<count where !entries.isEmpty {
            let (id, next) = ID3Text.terminated(entries, encoding: 0)
            ids.insert(id)
            entries = next
        }
        topLevel = ids
    }
}

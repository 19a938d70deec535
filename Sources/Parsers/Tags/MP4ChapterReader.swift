import Model

/// An MP4 file's chapters through ranged reads, for playing (a scan does not ask): a QuickTime
/// chapter track's text samples if the audio track names one (`tref/chap`), as iTunes and
/// Apple Books write them, else Nero's `chpl` list (mp4v2, older taggers). The text samples sit
/// in `mdat`, usually side by side: each run of them is one fetch.
enum MP4ChapterReader {
    /// A chapter track's sample table bigger than this is damage (a chapter costs 20-odd bytes).
    static let maxTable: Int64 = 1 << 20
    /// The most bytes of chapter text fetched, and the most fetched at a time.
    static let maxText: Int64 = 4 << 20
    static let maxFetch: Int64 = 256 * 1024
    /// A chapter track listing more is damage (a book has tens, a lecture series hundreds).
    static let maxChapters = 10_000

    /// `movie`: `moov`'s boxes; `audio`: the audio `trak`'s.
    static func read(movie: [MP4Box], audio: [MP4Box], length: Int64, _ boxes: inout RangedBoxes,
                     isolation: isolated (any Actor)? = #isolation,
                     _ fetch: (Range<Int64>) async throws -> [UInt8]) async throws -> [Chapter] {
        if let tref = audio.first(where: { $0.type == "tref" }),
           let chap = try await boxes.children(tref.bodyStart..<tref.end, fetch).first(where: { $0.type == "chap" }) {
            let ids = MP4ChapterText.trackIDs(try await boxes.body(chap, fetch))
            for trak in movie where trak.type == "trak" {
                let parts = try await boxes.children(trak.bodyStart..<trak.end, fetch)
                guard let tkhd = parts.first(where: { $0.type == "tkhd" }),
                      let id = MP4AudioTrack.trackID(try await boxes.body(tkhd, fetch)), ids.contains(id),
                      let mdia = parts.first(where: { $0.type == "mdia" }) else { continue }
                let found = try await textTrack(mdia, length: length, &boxes, fetch)
                if !found.isEmpty { return found }
            }
        }
        guard let udta = movie.first(where: { $0.type == "udta" }),
              let chpl = try await boxes.children(udta.bodyStart..<udta.end, fetch).first(where: { $0.type == "chpl" }),
              chpl.end - chpl.bodyStart <= maxTable else { return [] }
        return MP4ChapterText.nero(try await boxes.body(chpl, fetch))
    }

    /// The chapters of a text track (`mdia`): each sample's start, in its timescale, and text.
    private static func textTrack(_ mdia: MP4Box, length: Int64, _ boxes: inout RangedBoxes, isolation: isolated (any Actor)? = #isolation,
                                  _ fetch: (Range<Int64>) async throws -> [UInt8]) async throws -> [Chapter] {
        let media = try await boxes.children(mdia.bodyStart..<mdia.end, fetch)
        guard let mdhd = media.first(where: { $0.type == "mdhd" }),
              let timescale = MP4AudioTrack.timescale(try await boxes.body(mdhd, fetch), versionedFieldsBefore: 2), timescale > 0,
              let minf = media.first(where: { $0.type == "minf" }),
              let stbl = try await boxes.children(minf.bodyStart..<minf.end, fetch).first(where: { $0.type == "stbl" }),
              stbl.end - stbl.bodyStart <= maxTable else { return [] }
        let tableBytes = try await boxes.bytes(stbl.bodyStart..<stbl.end, fetch)
        let table = try MP4SampleTable(try MP4Box.children(of: tableBytes, at: stbl.bodyStart), in: tableBytes, at: stbl.bodyStart,
                                       fileLength: length, limit: maxChapters)
        let samples = table.samples
        var chapters: [Chapter] = []
        var fetched: Int64 = 0
        var first = 0
        while first < samples.count {
            // A run of samples back to back: one fetch.
            var last = first
            while last + 1 < samples.count, samples[last + 1].offset == samples[last].offset + Int64(samples[last].size),
                  samples[last + 1].offset + Int64(samples[last + 1].size) - samples[first].offset <= maxFetch {
                last += 1
            }
            let range = samples[first].offset..<(samples[last].offset + Int64(samples[last].size))
            fetched += Int64(range.count)
            guard range.upperBound <= length, fetched <= maxText else { break }
            let bytes = try await TagReader.checkedFetch(range, fetch)
            for sample in samples[first...last] {
                let from = Int(sample.offset - range.lowerBound)
                chapters.append(Chapter(start: Double(sample.time) / Double(timescale),
                                        title: MP4ChapterText.title(ofSample: bytes[from..<(from + sample.size)])))
            }
            first = last + 1
        }
        return chapters
    }
}

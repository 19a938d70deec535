import Model

/// An MP4 file's chapters through ranged reads, for playing (a scan does not ask): a QuickTime
/// chapter track's text samples if the audio track names one (`tref/chap`), as iTunes and
/// Apple Books write them, else Nero's `chpl` list (mp4v2, older taggers). The text samples sit
/// in `mdat`, usually side by side: each run of them is one fetch. A video track named beside the
/// text track holds the chapters' pictures (`MP4ChapterReader+Images`).
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
            var titled: [Chapter] = []
            var pictures: [MP4SampleTable.Sample] = []
            var pictureTimescale = 0
            for trak in movie where trak.type == "trak" {
                let parts = try await boxes.children(trak.bodyStart..<trak.end, fetch)
                guard let tkhd = parts.first(where: { $0.type == "tkhd" }),
                      let id = MP4AudioTrack.trackID(try await boxes.body(tkhd, fetch)), ids.contains(id),
                      let mdia = parts.first(where: { $0.type == "mdia" }),
                      // One that cannot be read (a picture past the sample table's limits) is passed over.
                      let (handler, timescale, table) = try? await chapterTrack(mdia, length: length, &boxes, fetch) else { continue }
                // A picture's bytes read as a title would make one of noise: the handler says which is which.
                if handler == "vide", pictures.isEmpty {
                    (pictures, pictureTimescale) = (table.samples, timescale)
                } else if handler != "vide", titled.isEmpty {
                    titled = try await texts(of: table.samples, timescale: timescale, length: length, fetch)
                }
            }
            if !titled.isEmpty {
                return try await withPictures(titled, pictures, timescale: pictureTimescale, length: length, fetch)
            }
        }
        guard let udta = movie.first(where: { $0.type == "udta" }),
              let chpl = try await boxes.children(udta.bodyStart..<udta.end, fetch).first(where: { $0.type == "chpl" }),
              chpl.end - chpl.bodyStart <= maxTable else { return [] }
        return MP4ChapterText.nero(try await boxes.body(chpl, fetch))
    }

    /// A chapter track (`mdia`): its handler ("text", "vide", …), its timescale and its samples;
    /// nil where it has no sample table or an implausible one.
    private static func chapterTrack(_ mdia: MP4Box, length: Int64, _ boxes: inout RangedBoxes, isolation: isolated (any Actor)? = #isolation,
                                     _ fetch: (Range<Int64>) async throws -> [UInt8]) async throws
        -> (handler: String, timescale: Int, table: MP4SampleTable)? {
        let media = try await boxes.children(mdia.bodyStart..<mdia.end, fetch)
        guard let hdlr = media.first(where: { $0.type == "hdlr" }), let mdhd = media.first(where: { $0.type == "mdhd" }),
              let timescale = MP4AudioTrack.timescale(try await boxes.body(mdhd, fetch), versionedFieldsBefore: 2), timescale > 0,
              let minf = media.first(where: { $0.type == "minf" }),
              let stbl = try await boxes.children(minf.bodyStart..<minf.end, fetch).first(where: { $0.type == "stbl" }),
              stbl.end - stbl.bodyStart <= maxTable else { return nil }
        var reader = ByteReader(try await boxes.body(hdlr, fetch))
        guard reader.skip(8), let type = reader.take(4) else { return nil }
        let tableBytes = try await boxes.bytes(stbl.bodyStart..<stbl.end, fetch)
        let table = try MP4SampleTable(try MP4Box.children(of: tableBytes, at: stbl.bodyStart), in: tableBytes, at: stbl.bodyStart,
                                       fileLength: length, limit: maxChapters)
        return (String(decoding: type, as: UTF8.self), timescale, table)
    }

    /// The chapters of a text track's samples: each one's start, in `timescale`, and its text.
    private static func texts(of samples: [MP4SampleTable.Sample], timescale: Int, length: Int64, isolation: isolated (any Actor)? = #isolation,
                              _ fetch: (Range<Int64>) async throws -> [UInt8]) async throws -> [Chapter] {
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

import Model

/// Tags and exact length of an MP4 file (M4A, M4B) through ranged reads of box headers and the
/// few small boxes that hold them — `mvhd`, `mdhd`, `hdlr`, `elst`, `stsd`'s first entry, the
/// `ilst` items — never the sample tables nor, in a scan, a cover: a 2 MB `covr` is stepped
/// over by its size, as an ID3v2 picture is. Chapters are read only when asked (for playing).
enum MP4TagReader {
    /// Bytes fetched at a time for box headers.
    static let window: Int64 = 4096
    /// The most of one tag item read (a cover when pictures are read: up to 16 MiB).
    static let maxItem: Int64 = 16 << 20

    static func read(head: [UInt8], length: Int64, pictures: Bool, chapters withChapters: Bool, isolation: isolated (any Actor)?,
                     _ fetch: (Range<Int64>) async throws -> [UInt8]) async throws -> ScannedTags {
        var boxes = RangedBoxes(length: length, start: 0, bytes: head)
        var walk = MP4FileReader(fileLength: length, window: window)
        var (bytes, offset) = (head[...], Int64(0))
        var moov: Range<Int64>?
        while moov == nil {
            switch try walk.step(bytes, at: offset) {
            case .done(let found): moov = found
            case .need(let range): (bytes, offset) = (try await TagReader.checkedFetch(range, fetch)[...], range.lowerBound)
            }
        }
        guard let moov else { throw ParseError.malformed("no 'moov' box") }
        let movie = try await boxes.children(moov, fetch)
        var movieTimescale: Int?
        if let mvhd = movie.first(where: { $0.type == "mvhd" }) {
            movieTimescale = MP4AudioTrack.timescale(try await boxes.body(mvhd, fetch), versionedFieldsBefore: 2)
        }
        var codec = AudioCodec.aac
        var timing: (total: Int64, edit: (mediaTime: Int64, duration: Int64)?, timescale: Int)?
        var audio: [MP4Box] = []
        for trak in movie where trak.type == "trak" {
            let parts = try await boxes.children(trak.bodyStart..<trak.end, fetch)
            guard let mdia = parts.first(where: { $0.type == "mdia" }) else { continue }
            let media = try await boxes.children(mdia.bodyStart..<mdia.end, fetch)
            guard let hdlr = media.first(where: { $0.type == "hdlr" }),
                  try await boxes.body(hdlr, fetch).dropFirst(8).prefix(4).elementsEqual("soun".utf8),
                  let mdhd = media.first(where: { $0.type == "mdhd" }) else { continue }
            let header = try await boxes.body(mdhd, fetch)
            guard let timescale = MP4AudioTrack.timescale(header, versionedFieldsBefore: 2), timescale > 0,
                  let total = MP4AudioTrack.mediaDuration(header) else { continue }
            var edit: (mediaTime: Int64, duration: Int64)?
            if let edts = parts.first(where: { $0.type == "edts" }),
               let elst = try await boxes.children(edts.bodyStart..<edts.end, fetch).first(where: { $0.type == "elst" }) {
                edit = MP4AudioTrack.firstEdit(try await boxes.body(elst, fetch))
            }
            audio = parts
            timing = (total, edit, timescale)
            if let minf = media.first(where: { $0.type == "minf" }),
               let stbl = try await boxes.children(minf.bodyStart..<minf.end, fetch).first(where: { $0.type == "stbl" }),
               let stsd = try await boxes.children(stbl.bodyStart..<stbl.end, fetch).first(where: { $0.type == "stsd" }),
               try await boxes.bytes(stsd.bodyStart..<min(stsd.end, stsd.bodyStart + 16), fetch).suffix(4).elementsEqual("alac".utf8) {
                codec = .alac
            }
            break
        }
        var read: [(type: String, body: ArraySlice<UInt8>)] = []
        for item in try await itemBoxes(in: movie, &boxes, fetch) ?? [] where pictures || item.type != "covr" {
            guard item.end - item.bodyStart <= maxItem else { continue }
            read.append((item.type, try await boxes.body(item, fetch)))
        }
        let tags = MP4ItemList.tags(read)
        let gapless = MP4ItemList.freeform("iTunSMPB", in: read).flatMap(ITunesGapless.init)
        // Fragmented: the length is known only if the file states it (`mehd`, an edit's length).
        let mvex = movie.first { $0.type == "mvex" }
        var declared: Int64?
        if let mvex, let mehd = try await boxes.children(mvex.bodyStart..<mvex.end, fetch).first(where: { $0.type == "mehd" }) {
            declared = MP4AudioTrack.fragmentDuration(try await boxes.body(mehd, fetch))
        }
        let duration = timing.flatMap { timing in
            MP4AudioTrack.heard(total: timing.total, fragmented: mvex != nil, declared: declared, edit: timing.edit, gapless: gapless,
                                timescale: timing.timescale, movieTimescale: movieTimescale).length.map { Double($0) / Double(timing.timescale) }
        }
        // A file whose chapters cannot be read still plays, without them.
        let chapters = withChapters ? ((try? await MP4ChapterReader.read(movie: movie, audio: audio, length: length, &boxes, fetch)) ?? []) : []
        return ScannedTags(codec: codec, tags: tags, duration: duration, chapters: .ordered(chapters, duration: duration))
    }

    /// `moov/udta/meta/ilst`'s items.
    private static func itemBoxes(in movie: [MP4Box], _ boxes: inout RangedBoxes, isolation: isolated (any Actor)? = #isolation,
                                  _ fetch: (Range<Int64>) async throws -> [UInt8]) async throws -> [MP4Box]? {
        guard let udta = movie.first(where: { $0.type == "udta" }),
              let meta = try await boxes.children(udta.bodyStart..<udta.end, fetch).first(where: { $0.type == "meta" }),
              meta.end - meta.bodyStart >= 8 else { return nil }
        let skip = MP4Box.metaChildrenOffset(try await boxes.bytes(meta.bodyStart..<min(meta.end, meta.bodyStart + 8), fetch))
        let children = try await boxes.children((meta.bodyStart + Int64(skip))..<meta.end, fetch)
        guard let ilst = children.first(where: { $0.type == "ilst" }) else { return nil }
        return try await boxes.children(ilst.bodyStart..<ilst.end, fetch)
    }
}

/// The first audio track of a movie (`moov`): its codec configuration, its samples, and what its
/// edit list says is heard — the encoder's delay skipped at the start (`media_time`) and its
/// padding at the end (the edit's length), so an album's tracks join with no gap and no overlap.
package struct MP4AudioTrack: Sendable, Equatable {
    package var entry: MP4SampleEntry
    /// The media's timescale (`mdhd`): the sample rate, for audio.
    package var timescale: Int
    package var table: MP4SampleTable
    /// The first media time heard (0 without an edit list), in the timescale.
    package var start: Int64
    /// How much is heard from `start`, in the timescale: the edit's length, else to the end; nil
    /// for a fragmented file whose length no box states (it plays to its last fragment).
    package var length: Int64?
    /// For a fragmented file: the track's sample defaults. Its samples are not in `table` (which
    /// is empty) but in the `moof` boxes after the `moov`, read as it plays (`MP4Fragment`).
    package var fragments: MP4Fragment.Defaults?

    /// PulseAudio's highest rate: a timescale above it is no audio rate.
    static let maxRate = 384_000

    /// The track of the `moov` box whose body is `bytes`, at `offset` in the file of `fileLength`
    /// bytes (nil: unknown), which bounds what its sample tables may claim.
    package init(moov bytes: ArraySlice<UInt8>, at offset: Int64, fileLength: Int64?) throws {
        func children(_ box: MP4Box) throws -> [MP4Box] {
            try MP4Box.children(of: body(box), at: box.bodyStart)
        }
        func body(_ box: MP4Box) -> ArraySlice<UInt8> { box.body(in: bytes, at: offset) }
        func child(_ type: String, of box: MP4Box) throws -> MP4Box {
            guard let found = try children(box).first(where: { $0.type == type }) else {
                throw ParseError.malformed("a '\(box.type)' box without '\(type)'")
            }
            return found
        }
        let movie = try MP4Box.children(of: bytes, at: offset)
        guard let header = movie.first(where: { $0.type == "mvhd" }) else { throw ParseError.malformed("a 'moov' without 'mvhd'") }
        let movieTimescale = Self.timescale(body(header), versionedFieldsBefore: 2)
        for trak in movie where trak.type == "trak" {
            let mdia = try child("mdia", of: trak)
            var handler = ByteReader(body(try child("hdlr", of: mdia)))
            guard handler.skip(8), let type = handler.take(4), type.elementsEqual("soun".utf8) else { continue }
            let media = try child("mdhd", of: mdia)
            guard let timescale = Self.timescale(body(media), versionedFieldsBefore: 2), (1...Self.maxRate).contains(timescale) else {
                throw ParseError.malformed("an 'mdhd' timescale that is no sample rate (1 Hz to 384 kHz)")
            }
            let stbl = try child("stbl", of: try child("minf", of: mdia))
            let tables = try children(stbl)
            guard let stsd = tables.first(where: { $0.type == "stsd" }) else { throw ParseError.malformed("an 'stbl' without 'stsd'") }
            entry = try MP4SampleEntry(stsd: body(stsd))
            table = try MP4SampleTable(tables, in: bytes, at: offset, fileLength: fileLength)
            self.timescale = timescale
            let total = table.samples.last.map { $0.time + Int64($0.duration) } ?? 0
            let edit = try children(trak).first { $0.type == "edts" }.map { Self.firstEdit(body(try child("elst", of: $0))) } ?? nil
            // Damaged tags never stop the audio: without them, no iTunSMPB.
            let gapless = edit == nil ? try? Self.gapless(in: movie, children: children, body: body) : nil
            var declared: Int64?
            if let mvex = movie.first(where: { $0.type == "mvex" }) {
                guard let id = try children(trak).first(where: { $0.type == "tkhd" }).flatMap({ Self.trackID(body($0)) }) else {
                    throw ParseError.malformed("a 'trak' without a track id")
                }
                let extended = try children(mvex)
                fragments = extended.filter { $0.type == "trex" }.compactMap { MP4Fragment.Defaults(trex: body($0)) }.first { $0.trackID == id }
                    ?? MP4Fragment.Defaults(trackID: id, duration: 0, size: 0)
                declared = extended.first { $0.type == "mehd" }.flatMap { Self.fragmentDuration(body($0)) }
            }
            (start, length) = Self.heard(total: total, fragmented: fragments != nil, declared: declared, edit: edit, gapless: gapless,
                                         timescale: timescale, movieTimescale: movieTimescale)
            return
        }
        throw ParseError.unsupported("no audio track")
    }

    /// What is heard of a track: for one whose `moov` lists its samples (`total` ticks of them),
    /// as `heard(total:…)` below; for a fragmented one (`mvex`; `declared`: its `mehd`), whose
    /// total is not known until its last fragment, as `heardFragmented`. The one place the tag
    /// reader and the decoder both ask.
    static func heard(total: Int64, fragmented: Bool, declared: Int64?, edit: (mediaTime: Int64, duration: Int64)?,
                      gapless: ITunesGapless?, timescale: Int, movieTimescale: Int?) -> (start: Int64, length: Int64?) {
        guard fragmented else {
            let heard = heard(total: total, edit: edit, gapless: gapless, timescale: timescale, movieTimescale: movieTimescale)
            return (heard.start, heard.length)
        }
        return heardFragmented(edit: edit, gapless: gapless, declared: declared, timescale: timescale, movieTimescale: movieTimescale)
    }

    /// What is heard of a media `total` long (in `timescale`): from the edit's media time, for the
    /// edit's length (in `movieTimescale`); without an edit list, as iTunes' `iTunSMPB` says;
    /// else all of it. (The edit list wins where both are: the standard's word. FFmpeg takes
    /// iTunSMPB's delay over it when the tag follows the track; files where they disagree are rare.)
    static func heard(total: Int64, edit: (mediaTime: Int64, duration: Int64)?, gapless: ITunesGapless? = nil, timescale: Int,
                      movieTimescale: Int?) -> (start: Int64, length: Int64) {
        if edit == nil, let gapless { return gapless.heard(total: total) }
        let start = min(total, edit?.mediaTime ?? 0)
        var length = total - start
        // In floating point: a damaged duration or timescale must not overflow; a negative
        // duration (a 64-bit one past 2^63) says nothing.
        if let edit, let movieTimescale, movieTimescale > 0, edit.duration >= 0 {
            // The edit's duration is in the movie's timescale (ISO/IEC 14496-12, 8.6.6: "in units
            // of the timescale in the Movie Header Box"), often 1000 where the media's is the
            // sample rate: an end within one movie tick of the media's end is that end, which the
            // `stts` gives to the sample (FFmpeg's movenc writes the last sample's duration to the
            // audio's end, and the edit rounded to the millisecond: 88,207 frames said as 2,000 ms).
            let scaled = Double(edit.duration) * Double(timescale) / Double(movieTimescale)
            let tick = max(1, Double(timescale) / Double(movieTimescale))
            if Double(length) - scaled >= tick { length = Int64(scaled) }
        }
        return (start, length)
    }

    /// iTunes' gapless item in `moov/udta/meta/ilst`, if there is one.
    private static func gapless(in movie: [MP4Box], children: (MP4Box) throws -> [MP4Box],
                                body: (MP4Box) -> ArraySlice<UInt8>) throws -> ITunesGapless? {
        guard let udta = movie.first(where: { $0.type == "udta" }), let meta = try children(udta).first(where: { $0.type == "meta" }) else {
            return nil
        }
        let skip = MP4Box.metaChildrenOffset(body(meta))
        let inner = try MP4Box.children(of: body(meta).dropFirst(skip), at: meta.bodyStart + Int64(skip))
        let items = try inner.first { $0.type == "ilst" }.map { try children($0).map { ($0.type, body($0)) } } ?? []
        return MP4ItemList.freeform("iTunSMPB", in: items).flatMap(ITunesGapless.init)
    }

    /// The latest media time a track may start at or last for: past any file's, and far from
    /// overflowing what is added to it (times twice over for SBR, starts and lengths added).
    static let maxTime: Int64 = 1 << 50

    /// What is heard of a fragmented track, whose total is not known until its last fragment: from
    /// the edit's media time (or iTunSMPB's delay), for the edit's length if it states one, else
    /// for what `mehd` declares (in the movie's timescale), else to the end.
    private static func heardFragmented(edit: (mediaTime: Int64, duration: Int64)?, gapless: ITunesGapless?, declared: Int64?, timescale: Int,
                                movieTimescale: Int?) -> (start: Int64, length: Int64?) {
        let start = min(maxTime, max(0, edit?.mediaTime ?? gapless?.priming ?? 0))
        func scaled(_ duration: Int64?) -> Int64? {
            guard let duration, duration > 0, let movieTimescale, movieTimescale > 0 else { return nil }
            let value = Double(duration) * Double(timescale) / Double(movieTimescale)
            return value < Double(maxTime) ? Int64(value) : nil
        }
        if let length = scaled(edit?.duration) { return (start, length) }
        if edit == nil, let gapless, gapless.samples > 0 { return (start, min(maxTime, gapless.samples)) }
        return (start, scaled(declared).map { max(0, $0 - start) })
    }

    /// `mdhd`'s duration, in its timescale: after version and flags, two dates and the timescale.
    static func mediaDuration(_ body: ArraySlice<UInt8>) -> Int64? {
        var reader = ByteReader(body)
        guard let version = reader.u8(), reader.skip(3 + 2 * (version == 1 ? 8 : 4) + 4) else { return nil }
        return reader.bigEndian(version == 1 ? 8 : 4).map { Int64(truncatingIfNeeded: $0) }
    }

    /// `mehd`'s fragment duration, in the movie's timescale: right after version and flags.
    static func fragmentDuration(_ body: ArraySlice<UInt8>) -> Int64? {
        var reader = ByteReader(body)
        guard let version = reader.u8(), reader.skip(3) else { return nil }
        return reader.bigEndian(version == 1 ? 8 : 4).map { Int64(truncatingIfNeeded: $0) }
    }

    /// `tkhd`'s track id: after version and flags, two dates (4 or 8 bytes each by version).
    package static func trackID(_ tkhd: ArraySlice<UInt8>) -> Int? {
        var reader = ByteReader(tkhd)
        guard let version = reader.u8(), reader.skip(3 + 2 * (version == 1 ? 8 : 4)) else { return nil }
        return reader.u32be()
    }

    /// `mvhd`'s or `mdhd`'s timescale: after version and flags and `fields` dates, 4 or 8 bytes each.
    static func timescale(_ body: ArraySlice<UInt8>, versionedFieldsBefore fields: Int) -> Int? {
        var reader = ByteReader(body)
        guard let version = reader.u8(), reader.skip(3), reader.skip(fields * (version == 1 ? 8 : 4)) else { return nil }
        return reader.u32be()
    }

    /// The first edit that shows media (`media_time` ≥ 0): where it starts in the media, and
    /// its length in the movie's timescale. Empty edits before it (a delayed start) play nothing
    /// here.
    static func firstEdit(_ elst: ArraySlice<UInt8>) -> (mediaTime: Int64, duration: Int64)? {
        var reader = ByteReader(elst)
        guard let version = reader.u8(), reader.skip(3), let count = reader.u32be() else { return nil }
        let wide = version == 1
        for _ in 0..<min(count, 1000) {
            guard let duration = reader.bigEndian(wide ? 8 : 4), let time = reader.bigEndian(wide ? 8 : 4), reader.skip(4) else { break }
            let mediaTime = wide ? Int64(bitPattern: time) : Int64(Int32(bitPattern: UInt32(time)))
            if mediaTime >= 0 { return (mediaTime, Int64(truncatingIfNeeded: duration)) }
        }
        return nil
    }
}

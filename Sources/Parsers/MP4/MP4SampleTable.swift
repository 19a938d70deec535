/// Where every sample (one coded audio frame) of a track is and how long it lasts, from the
/// sample table boxes (ISO/IEC 14496-12 §8.6–8.7): `stts` durations, `stsz`/`stz2` sizes, `stsc`
/// samples per chunk and `stco`/`co64` chunk offsets. A seek finds its sample here and fetches
/// only that sample's bytes on.
package struct MP4SampleTable: Sendable, Equatable {
    package struct Sample: Sendable, Equatable {
        package var offset: Int64
        package var size: Int
        /// Where it starts in the media's time, in its timescale.
        package var time: Int64
        package var duration: Int

        package init(offset: Int64, size: Int, time: Int64, duration: Int) {
            self.offset = offset
            self.size = size
            self.time = time
            self.duration = duration
        }
    }

    package var samples: [Sample]

    /// More samples than a 24-hour 48 kHz AAC track has (4.1 million); a table claiming more is damage.
    package static let maxSamples = 8_000_000
    /// A coded frame bigger than this is damage: ALAC's largest (4096 frames of 8 channels of 32
    /// bits) is 128 KiB.
    static let maxSampleSize = 4 << 20
    /// Chunk offsets beyond this are past any file, and would overflow what is added to them.
    static let maxOffset: Int64 = 1 << 50

    /// `stbl`: the sample table's boxes, in `bytes` at `offset`; `fileLength` (nil: unknown)
    /// bounds what they may claim: no sample past it, no more bytes of samples than it has.
    /// `limit`: the most samples taken (a chapter track's are far fewer than audio's).
    init(_ stbl: [MP4Box], in bytes: ArraySlice<UInt8>, at offset: Int64, fileLength: Int64?, limit: Int = maxSamples) throws {
        func body(_ type: String) throws -> ByteReader {
            guard let box = stbl.first(where: { $0.type == type }) else { throw ParseError.malformed("no '\(type)' box") }
            let from = bytes.startIndex + Int(box.bodyStart - offset)
            var reader = ByteReader(bytes[from..<(bytes.startIndex + Int(box.end - offset))])
            _ = reader.skip(4)  // version and flags
            return reader
        }
        func has(_ type: String) -> Bool { stbl.contains { $0.type == type } }
        func count(_ reader: inout ByteReader, each: Int, _ what: String) throws -> Int {
            guard let count = reader.u32be(), count <= limit, count * each <= reader.remaining else {
                throw ParseError.malformed("a '\(what)' box whose entry count does not fit it")
            }
            return count
        }
        let fileBytes = fileLength ?? Int64.max

        // Sizes first: they bound everything else (no more samples than bytes in the file).
        var sizes: [Int] = []
        if has("stsz") {
            var stsz = try body("stsz")
            guard let fixed = stsz.u32be() else { throw ParseError.malformed("a short 'stsz' box") }
            let total = try count(&stsz, each: fixed == 0 ? 4 : 0, "stsz")
            guard fixed == 0 || Int64(total) * Int64(fixed) <= fileBytes else {
                throw ParseError.malformed("an 'stsz' box claiming \(total) samples of \(fixed) bytes, more than the file holds")
            }
            sizes = fixed != 0 ? Array(repeating: fixed, count: total) : (0..<total).map { _ in stsz.u32be() ?? 0 }
        } else {
            var stz2 = try body("stz2")
            guard stz2.skip(3), let field = stz2.u8().map(Int.init), [4, 8, 16].contains(field) else {
                throw ParseError.malformed("an 'stz2' box with a field size that is not 4, 8 or 16")
            }
            guard let total = stz2.u32be(), total <= limit, (total * field + 7) / 8 <= stz2.remaining else {
                throw ParseError.malformed("an 'stz2' box whose entry count does not fit it")
            }
            let packed = stz2.rest()
            sizes = (0..<total).map { index in
                switch field {
                case 4: Int(packed[packed.startIndex + index / 2] >> (index % 2 == 0 ? 4 : 0) & 0x0F)
                case 8: Int(packed[packed.startIndex + index])
                default: Int(packed[packed.startIndex + 2 * index]) << 8 | Int(packed[packed.startIndex + 2 * index + 1])
                }
            }
        }
        if let largest = sizes.max(), largest > Self.maxSampleSize {
            throw ParseError.malformed("a sample of \(largest) bytes")
        }

        var durations: [Int] = []
        durations.reserveCapacity(sizes.count)
        var stts = try body("stts")
        for _ in 0..<(try count(&stts, each: 8, "stts")) {
            guard let run = stts.u32be(), let delta = stts.u32be() else { break }
            guard durations.count + run <= sizes.count else {
                throw ParseError.malformed("'stts' has more samples than 'stsz' (\(sizes.count))")
            }
            durations += repeatElement(delta, count: run)
        }
        guard sizes.count == durations.count else {
            throw ParseError.malformed("'stsz' has \(sizes.count) samples and 'stts' \(durations.count)")
        }

        var chunkOffsets: [Int64] = []
        let wide = has("co64")
        var stco = try body(wide ? "co64" : "stco")
        for _ in 0..<(try count(&stco, each: wide ? 8 : 4, wide ? "co64" : "stco")) {
            let value = wide ? Int64(truncatingIfNeeded: stco.bigEndian(8) ?? 0) : Int64(stco.u32be() ?? 0)
            guard (0...Self.maxOffset).contains(value) else { throw ParseError.malformed("a chunk offset of \(value)") }
            chunkOffsets.append(value)
        }

        var stsc = try body("stsc")
        var runs: [(firstChunk: Int, samplesPerChunk: Int)] = []
        for _ in 0..<(try count(&stsc, each: 12, "stsc")) {
            guard let first = stsc.u32be(), let perChunk = stsc.u32be(), stsc.skip(4), first >= 1,
                  first > (runs.last?.firstChunk ?? 0) else {
                throw ParseError.malformed("an 'stsc' box whose chunks do not go forward")
            }
            runs.append((first, perChunk))
        }

        // Chunk by chunk, each run of chunks with its samples per chunk, samples back to back.
        samples = []
        samples.reserveCapacity(sizes.count)
        var time: Int64 = 0
        placing: for (index, run) in runs.enumerated() {
            let lastChunk = index + 1 < runs.count ? runs[index + 1].firstChunk - 1 : chunkOffsets.count
            guard lastChunk <= chunkOffsets.count else { throw ParseError.malformed("'stsc' names chunks 'stco' does not have") }
            for chunk in (run.firstChunk - 1)..<max(run.firstChunk - 1, lastChunk) {
                var position = chunkOffsets[chunk]
                for _ in 0..<min(run.samplesPerChunk, sizes.count - samples.count) {
                    let number = samples.count
                    samples.append(Sample(offset: position, size: sizes[number], time: time, duration: durations[number]))
                    position += Int64(sizes[number])
                    time += Int64(durations[number])
                }
                if samples.count == sizes.count { break placing }
            }
        }
        guard samples.count == sizes.count else {
            throw ParseError.malformed("the chunks hold \(samples.count) of the \(sizes.count) samples")
        }
    }

    /// The index of the sample playing at `time` (media timescale), the last one past the end.
    package func sample(at time: Int64) -> Int {
        var low = 0, high = samples.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if samples[middle].time <= time { low = middle } else { high = middle - 1 }
        }
        return max(0, low)
    }
}

extension [MP4SampleTable.Sample] {
    /// The sample whose time holds `time` (in the track's timescale, half a tick allowed): the last
    /// to start at or before it, if it lasts that long. For samples in time order; a binary search,
    /// so a forged table of thousands costs a few steps per look, not thousands.
    package func sample(showing time: Double) -> MP4SampleTable.Sample? {
        var low = 0, high = count
        while low < high {
            let middle = (low + high) / 2
            if Double(self[middle].time) <= time + 0.5 { low = middle + 1 } else { high = middle }
        }
        guard low > 0 else { return nil }
        let sample = self[low - 1]
        return Double(sample.time + Int64(sample.duration)) > time ? sample : nil
    }
}

/// A fragmented MP4's samples, fragment by fragment (ISO/IEC 14496-12 §8.8): the `moov` holds no
/// samples, only each track's defaults (`mvex/trex`); each `moof` that follows lists its samples'
/// durations and sizes (`traf`: `tfhd`, `tfdt`, `trun`), and the `mdat` after it their bytes.
/// Live recordings and DASH/HLS segments are written this way. A decoder reads one `moof` at a
/// time as it plays, and a seek walks the `moof`s before its target, never their `mdat`s.
package struct MP4Fragment: Sendable, Equatable {
    /// A track's sample defaults, from `trex` (a `tfhd` may override them).
    package struct Defaults: Sendable, Equatable {
        package var trackID: Int
        package var duration: Int
        package var size: Int

        package init(trackID: Int, duration: Int, size: Int) {
            self.trackID = trackID
            self.duration = duration
            self.size = size
        }

        /// `trex`'s body: version and flags, the track id, the description index, then the
        /// default duration, size and flags.
        package init?(trex body: ArraySlice<UInt8>) {
            var reader = ByteReader(body)
            guard reader.skip(4), let id = reader.u32be(), reader.skip(4), let duration = reader.u32be(), let size = reader.u32be() else {
                return nil
            }
            self.init(trackID: id, duration: duration, size: size)
        }
    }

    /// This track's samples in the fragment, in file order; their times start at the fragment's
    /// decode time (`tfdt`), else where the previous fragment ended (`time`).
    package var samples: [MP4SampleTable.Sample]

    /// The most samples one fragment may list: more is damage (a fragment is seconds long).
    static let maxSamples = 1 << 20

    /// The samples of `defaults`' track in the `moof` whose body is `body`, the box starting at
    /// `moofStart` in a file of `fileLength` bytes; `time`: where the previous fragment ended.
    package init(moof body: ArraySlice<UInt8>, at moofStart: Int64, bodyStart: Int64, defaults: Defaults, time: Int64,
                 fileLength: Int64?) throws {
        samples = []
        var time = time
        var walked = 0  // samples of every track's runs, ours or not: a bound on the work
        var nextData = moofStart  // where a track fragment's data starts without a stated base
        for traf in try MP4Box.children(of: body, at: bodyStart) where traf.type == "traf" {
            let parts = try MP4Box.children(of: traf.body(in: body, at: bodyStart), at: traf.bodyStart)
            guard let tfhd = parts.first(where: { $0.type == "tfhd" }) else { throw ParseError.malformed("a 'traf' without 'tfhd'") }
            var header = ByteReader(tfhd.body(in: body, at: bodyStart))
            guard header.skip(1), let flags = header.bigEndian(3), let id = header.u32be() else { throw ParseError.malformed("a short 'tfhd'") }
            let ours = id == defaults.trackID
            var base = flags & 0x020000 != 0 ? moofStart : nextData
            if flags & 0x01 != 0 {
                guard let offset = header.bigEndian(8), offset < UInt64(Int64.max / 2) else { throw ParseError.malformed("a bad base data offset") }
                base = Int64(offset)
            }
            if flags & 0x02 != 0 { _ = header.skip(4) }
            // Another track's samples are walked only to find where the next track fragment's data starts.
            var duration = ours ? defaults.duration : 0, size = ours ? defaults.size : 0
            if flags & 0x08 != 0 { duration = header.u32be() ?? duration }
            if flags & 0x10 != 0 { size = header.u32be() ?? size }
            if ours, let tfdt = parts.first(where: { $0.type == "tfdt" }) {
                var reader = ByteReader(tfdt.body(in: body, at: bodyStart))
                if let version = reader.u8(), reader.skip(3), let decodeTime = reader.bigEndian(version == 1 ? 8 : 4),
                   decodeTime < UInt64(Int64.max / 4) {
                    time = Int64(decodeTime)
                }
            }
            var data = base
            for trun in parts where trun.type == "trun" {
                var reader = ByteReader(trun.body(in: body, at: bodyStart))
                guard reader.skip(1), let runFlags = reader.bigEndian(3), let count = reader.u32be(),
                      walked + count <= Self.maxSamples else { throw ParseError.malformed("a 'moof' of too many samples") }
                walked += count
                if runFlags & 0x01 != 0, let offset = reader.u32be() { data = base + Int64(Int32(truncatingIfNeeded: offset)) }
                if runFlags & 0x04 != 0 { _ = reader.skip(4) }
                for _ in 0..<count {
                    var sampleDuration = duration, sampleSize = size
                    if runFlags & 0x100 != 0 { guard let value = reader.u32be() else { throw Self.short } ; sampleDuration = value }
                    if runFlags & 0x200 != 0 { guard let value = reader.u32be() else { throw Self.short } ; sampleSize = value }
                    if runFlags & 0x400 != 0, !reader.skip(4) { throw Self.short }
                    if runFlags & 0x800 != 0, !reader.skip(4) { throw Self.short }
                    guard data >= 0, sampleSize <= MP4SampleTable.maxSampleSize, data + Int64(sampleSize) <= (fileLength ?? .max) else {
                        throw ParseError.malformed("a fragment's sample past the end of the file")
                    }
                    if ours {
                        samples.append(MP4SampleTable.Sample(offset: data, size: sampleSize, time: time, duration: sampleDuration))
                        time += Int64(sampleDuration)
                    }
                    data += Int64(sampleSize)
                }
            }
            nextData = data
        }
    }

    private static let short = ParseError.malformed("a 'trun' shorter than its samples")
}

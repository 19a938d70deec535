import Model
import Parsers

/// Reads a fragmented MP4's `moof` boxes one after another from its byte source, as the decoder
/// needs their samples: each top-level box after the `moov` costs a 16-byte header read, and an
/// `mdat` is stepped over by its size — a seek far into the file fetches the `moof`s on the way,
/// never the audio between them.
struct MP4FragmentWalk {
    let defaults: MP4Fragment.Defaults
    /// Where the next top-level box starts; nil once the file has ended.
    private(set) var next: Int64?
    /// Where the last fragment's samples ended, in the media's time: the next one's start unless
    /// it states its own (`tfdt`).
    private var time: Int64 = 0
    private var boxes = 0

    /// A `moof` bigger than this is damage (one lists a few seconds of samples).
    static let maxMoof: Int64 = 16 << 20
    /// More top-level boxes than a day of one-frame fragments is damage.
    static let maxBoxes = 4_000_000

    /// `time`: where the samples the `moov` itself lists end (a file whose first fragment is there).
    init(defaults: MP4Fragment.Defaults, after moovEnd: Int64, time: Int64) {
        self.defaults = defaults
        next = moovEnd
        self.time = time
    }

    /// The track's samples in the next fragment that has any, or nil at the end of the file.
    mutating func nextSamples(from source: any ByteSource) throws -> [MP4SampleTable.Sample]? {
        while let at = next {
            let header = try source.readBytes(at: at, count: 16)
            guard header.count >= 8, let box = try MP4Box(header[...], at: at, containerEnd: source.length ?? .max) else {
                next = nil  // the end of the file (or a few stray bytes after the last box)
                return nil
            }
            boxes += 1
            guard boxes <= Self.maxBoxes else { throw ParseError.malformed("more than \(Self.maxBoxes) top-level boxes") }
            next = box.end
            guard box.type == "moof" else { continue }
            guard box.end - box.bodyStart <= Self.maxMoof else { throw ParseError.malformed("a 'moof' box of \(box.end - box.bodyStart) bytes") }
            let body = try source.readBytes(in: box.bodyStart..<box.end)
            guard Int64(body.count) == box.end - box.bodyStart else { throw ParseError.malformed("the file ends inside a 'moof' box") }
            let fragment = try MP4Fragment(moof: body[...], at: box.start, bodyStart: box.bodyStart, defaults: defaults, time: time,
                                           fileLength: source.length)
            guard let last = fragment.samples.last else { continue }
            time = last.time + Int64(last.duration)
            return fragment.samples
        }
        return nil
    }
}

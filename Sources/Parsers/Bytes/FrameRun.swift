/// A frame header of a stream that has no container, only a sync pattern (MPEG audio, AAC in
/// ADTS): enough to tell a real frame from junk that happens to look like one.
package protocol SyncedFrameHeader: Equatable {
    /// Bytes a header needs before it can be parsed.
    static var headerSize: Int { get }
    /// Nil for anything that is not a valid header.
    init?(_ bytes: ArraySlice<UInt8>)
    /// The whole frame's length, header included.
    var length: Int { get }
    /// Whether `other` can be the next frame of the same stream.
    func continues(with other: Self) -> Bool
}

/// MPEG audio's run of frames: what the format sniffer, the tag reader and the stream layout look for.
package typealias MPEGFrameRun = FrameRun<MPEGFrameHeader>

/// Where a stream of synced frames starts in bytes that may begin with junk: the first valid
/// frame header that more valid headers of the same stream follow, back to back. A lone 0xFFF
/// sync pattern in junk is not a frame; a run of them is.
package struct FrameRun<Header: SyncedFrameHeader>: Equatable {
    /// The run's first frame: its offset from the start of the bytes searched, and its header.
    package let offset: Int
    package let header: Header

    /// What a run that the bytes end inside, before it has all its frames, counts as.
    package enum WindowEnd: Equatable {
        /// A run if the bytes end before its next header: they are a window into a longer file,
        /// and what lies past it is unknown.
        case counts
        /// A run only if its frames end exactly `fileLength` bytes after the start of the bytes:
        /// a whole file too short for the frames asked for. Nil: no file length known.
        case countsIfFileEnds(fileLength: Int64?)
    }

    /// The first run of `frames` consecutive frames in `bytes`, or of fewer that `windowEnd` lets
    /// count when `bytes` end inside them; nil if there is none.
    package static func first(in bytes: ArraySlice<UInt8>, frames: Int, windowEnd: WindowEnd) -> FrameRun? {
        let size = Header.headerSize
        var index = bytes.startIndex
        while index + size <= bytes.endIndex {
            defer { index += 1 }
            guard bytes[index] == 0xFF, let first = Header(bytes[index...]) else { continue }
            var found = 1
            var next = index + first.length
            while found < frames, next + size <= bytes.endIndex, let header = Header(bytes[next...]),
                  first.continues(with: header) {
                found += 1
                next += header.length
            }
            let run = FrameRun(offset: index - bytes.startIndex, header: first)
            if found >= frames { return run }
            switch windowEnd {
            case .counts where next + size > bytes.endIndex:
                return run
            case .countsIfFileEnds(let fileLength?) where Int64(next - bytes.startIndex) == fileLength:
                return run
            default:
                continue  // a header that does not follow on, or a file that goes on
            }
        }
        return nil
    }
}

/// Where an MP3's frames lie, as far as the start of the stream tells without reading the rest:
/// so a seek can go straight to the bytes of a frame instead of reading every frame before it.
///
/// Frame numbers count as libmpg123 counts them: frame 0 is the first audio frame, after the
/// frame that holds a Xing/Info/VBRI header.
package struct MPEGStreamLayout: Equatable {
    /// How a frame's bytes can be found.
    package enum Seeking: Equatable {
        /// Every frame has this bitrate: frame k starts at `firstFrame + k · averageFrameBytes`,
        /// give or take the padding byte. `declared`: an Info header says so (LAME's CBR mark);
        /// otherwise it is only seen in the stream's first frames, and a frame must be found
        /// exactly where the arithmetic puts it.
        case constantBitrate(bitrate: Int, declared: Bool)
        /// A Xing seek table over `bytes` bytes from `firstFrame` and `frames` frames.
        case seekTable(XingSeekTable, frames: Int64, bytes: Int64)
        /// Neither: only reading every frame from the start finds one.
        case scan
    }

    /// The offset of frame 0 in the file.
    package let firstFrame: Int64
    /// The header of frame 0: frames of the same stream must agree with it.
    package let header: MPEGFrameHeader
    package let seeking: Seeking

    /// The layout of the stream whose first bytes (after any ID3v2 tag) are `window`, read at
    /// `windowStart` of a file of `fileLength` bytes; nil if no MPEG frames start there.
    package init?(window: ArraySlice<UInt8>, windowStart: Int64, fileLength: Int64) {
        guard let run = MPEGFrameRun.first(in: window, frames: 3, windowEnd: .counts) else { return nil }
        let start = window.startIndex + run.offset
        guard let lengthHeader = MPEGLengthHeader(frame: window[start...], header: run.header) else {
            firstFrame = windowStart + Int64(run.offset)
            header = run.header
            seeking = Self.steadyBitrate(window[start...], header: run.header) ? .constantBitrate(bitrate: run.header.bitrate, declared: false) : .scan
            return
        }
        // The header's own frame holds no audio: frame 0 is the next one.
        let next = start + run.header.length
        guard next + 4 <= window.endIndex, let audio = MPEGFrameHeader(window[next...]), run.header.continues(with: audio) else { return nil }
        firstFrame = windowStart + Int64(next - window.startIndex)
        header = audio
        let audioBytes = fileLength - firstFrame
        if lengthHeader.marksConstantBitrate && audio.bitrate == run.header.bitrate {
            seeking = .constantBitrate(bitrate: audio.bitrate, declared: true)
        } else if let frames = lengthHeader.frames, frames > 0, let table = lengthHeader.toc.flatMap(XingSeekTable.init),
                  Int64(frames) * Int64(audio.samplesPerFrame) <= MPEGLengthHeader.maxSamples(inBytes: audioBytes) {
            // The bytes counted include the header's frame; a count beyond the file is not believed.
            let declared = lengthHeader.bytes.map { Int64($0) - Int64(run.header.length) } ?? audioBytes
            let bytes = declared > 0 && declared <= audioBytes ? declared : audioBytes
            seeking = bytes > 0 ? .seekTable(table, frames: Int64(frames), bytes: bytes) : .scan
        } else {
            seeking = .scan
        }
    }

    /// PCM samples (per channel) in each frame.
    package var samplesPerFrame: Int { header.samplesPerFrame }

    /// Whether the frames in `bytes` (from a frame start) all have the first one's bitrate, for
    /// at least eight frames or up to the end of the bytes: no Xing header, yet constant.
    private static func steadyBitrate(_ bytes: ArraySlice<UInt8>, header: MPEGFrameHeader) -> Bool {
        var index = bytes.startIndex
        var frames = 0
        while index + 4 <= bytes.endIndex {
            guard let next = MPEGFrameHeader(bytes[index...]), header.continues(with: next), next.bitrate == header.bitrate else {
                return false
            }
            frames += 1
            index += next.length
        }
        return frames >= 8
    }

    /// Where frame `frame` starts by the arithmetic of a constant bitrate (it may lie a padding
    /// byte or so later).
    package func constantBitrateOffset(ofFrame frame: Int64, bitrate: Int) -> Int64 {
        firstFrame + frame * Int64(samplesPerFrame) * Int64(bitrate) / (8 * Int64(header.sampleRate))
    }

    /// Where the seek table puts sample `sample` (counted from frame 0), and which frame that
    /// is thought to be.
    package func tableOffset(ofSample sample: Int64, table: XingSeekTable, frames: Int64, bytes: Int64) -> Int64 {
        let fraction = Double(sample) / Double(frames * Int64(samplesPerFrame))
        return firstFrame + Int64(table.byteFraction(atTime: fraction) * Double(bytes))
    }

    /// The number of the frame that starts at `offset`, counted by walking the frames from frame 0
    /// header to header, as libmpg123 counts them in a clean stream; `read` gives the bytes of a
    /// range (all of them before `offset` must be there). Nil if the walk does not arrive at
    /// `offset` exactly: junk or damage between frames, where libmpg123 would resync and its
    /// count is not this one.
    package func frameNumber(at offset: Int64, read: (Range<Int64>) throws -> [UInt8]) rethrows -> Int64? {
        var chunk: [UInt8] = []
        var chunkStart = firstFrame
        var at = firstFrame
        var count: Int64 = 0
        while at < offset {
            if at + 4 > chunkStart + Int64(chunk.count) {
                chunkStart = at
                chunk = try read(at..<min(offset, at + 64 * 1024) + 4)
                guard chunk.count >= 4 else { return nil }
            }
            let index = Int(at - chunkStart)
            guard let next = MPEGFrameHeader(chunk[index...]), header.continues(with: next) else { return nil }
            at += Int64(next.length)
            count += 1
        }
        return at == offset ? count : nil
    }

    /// The frame start in `window` (read at `windowStart`) nearest to `estimate`: a header of this
    /// stream that two more follow back to back (of the same bitrate when `bitrate` is given).
    package func frameStart(near estimate: Int64, in window: ArraySlice<UInt8>, windowStart: Int64, bitrate: Int? = nil) -> Int64? {
        func isFrame(at index: Int) -> Bool {
            var at = index
            for _ in 0..<3 {
                guard at + 4 <= window.endIndex, let next = MPEGFrameHeader(window[at...]), header.continues(with: next),
                      bitrate.map({ $0 == next.bitrate }) ?? true else { return false }
                at += next.length
            }
            return true
        }
        let center = window.startIndex + Int(max(0, min(estimate - windowStart, Int64(window.count))))
        for distance in 0..<max(window.count, 1) {
            let candidates = distance == 0 ? [center] : [center - distance, center + distance]
            for index in candidates where index >= window.startIndex && index < window.endIndex && window[index] == 0xFF {
                if isFrame(at: index) { return windowStart + Int64(index - window.startIndex) }
            }
            if center - distance < window.startIndex && center + distance >= window.endIndex { break }
        }
        return nil
    }
}

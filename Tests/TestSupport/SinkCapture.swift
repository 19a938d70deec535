import Foundation

/// What `parec` has written of a sink's monitor so far, read on as the file grows (never again
/// from its start): how many frames, how many of them audible, and where the last audible one
/// ends. A frame is audible when any of its bytes is not zero.
struct SinkCapture {
    let file: URL
    let frameBytes: Int
    private(set) var frames = 0
    private(set) var audibleFrames = 0
    /// One past the last audible frame; 0 while none came.
    private(set) var audibleEnd = 0
    /// Bytes of a frame not yet wholly written.
    private var partial: [UInt8] = []

    init(file: URL, frameBytes: Int) {
        self.file = file
        self.frameBytes = frameBytes
    }

    /// Silent frames after the last audible one (all of them while none was audible).
    var trailingSilence: Int { frames - audibleEnd }

    /// Reads what was written since the last call.
    mutating func readOn() {
        guard let handle = try? FileHandle(forReadingFrom: file) else { return }
        defer { try? handle.close() }
        guard (try? handle.seek(toOffset: UInt64(frames * frameBytes + partial.count))) != nil,
              let data = try? handle.readToEnd(), !data.isEmpty else { return }
        let bytes = partial + data
        let whole = bytes.count / frameBytes
        bytes.withUnsafeBufferPointer { buffer in
            for frame in 0..<whole {
                let start = frame * frameBytes
                var audible = false
                for index in start..<(start + frameBytes) where buffer[index] != 0 {
                    audible = true
                    break
                }
                if audible {
                    audibleFrames += 1
                    audibleEnd = frames + frame + 1
                }
            }
        }
        frames += whole
        partial = Array(bytes[(whole * frameBytes)...])
    }
}

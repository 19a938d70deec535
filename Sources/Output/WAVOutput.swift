import Base
import Glibc
import Model

/// Writes the PCM to a WAV file as fast as it is decoded: for tests and conversion.
///
/// A WAV file holds one format, so consecutive tracks of the same format join gaplessly and a
/// track of another format is refused (that track fails; the file stays valid). Volume is not
/// applied: the file gets the decoded samples as they are, at their depth (24-bit sources as
/// packed 24-bit samples, as `flac -d` writes them). It runs on a thread of its own because file
/// writes block.
package actor WAVOutput: AudioOutput {
    private let executor = ThreadExecutor(name: "wav-output")
    package nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    private let path: String
    private let descriptor: Int32
    private let gate = AsyncGate()
    private var format: PCMFormat?
    private var dataBytes: Int64 = 0
    private var streamFrames: Int64 = 0
    private var closed = false

    /// Creates (or truncates) the file at `path`.
    package init(path: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw OutputError.invalidSpec("cannot create \(path): \(String(cString: strerror(errno)))")
        }
        self.path = path
        self.descriptor = fd
    }

    deinit {
        if !closed { Glibc.close(descriptor) }
        executor.shutdown()
    }

    package func start(format newFormat: PCMFormat) throws {
        if let format {
            guard format == newFormat else {
                throw OutputError.unsupportedFormat(
                    "a WAV file holds one format: this track is \(newFormat), the file is \(format)")
            }
            streamFrames = 0
            return
        }
        streamFrames = 0
        format = newFormat
        try writeAll(header(for: newFormat, dataBytes: 0), at: 0)
    }

    package func write(_ samples: PCMSamples) async throws {
        try await gate.wait()
        guard let format else { return }
        let bytes = Self.fileBytes(samples, format: format)
        try writeAll(bytes, at: 44 + dataBytes)
        dataBytes += Int64(bytes.count)
        streamFrames += Int64(samples.count / format.channels)
    }

    package func drain() {}

    package func stop() {
        streamFrames = 0
    }

    package func setPaused(_ paused: Bool) {
        paused ? gate.close() : gate.open()
    }

    package func setVolume(_ volume: Double) {}

    package func playedFrames() -> Int64 { streamFrames }

    /// Writes the final sizes into the header and closes the file. A file that never got a
    /// track (every one failed) is removed rather than left empty and invalid.
    package func close() throws {
        guard !closed else { return }
        closed = true
        defer { Glibc.close(descriptor) }
        guard let format else {
            unlink(path)
            return
        }
        try writeAll(header(for: format, dataBytes: dataBytes), at: 0)
        guard fsync(descriptor) == 0 else { throw failure() }
    }

    /// Samples as the file holds them: 16- and 32-bit as they are, 24-bit packed in three bytes
    /// (little-endian in memory on every platform we build for).
    private static func fileBytes(_ samples: PCMSamples, format: PCMFormat) -> [UInt8] {
        switch samples {
        case .int16(let values):
            return values.withUnsafeBytes { Array($0) }
        case .int32(let values) where format.depth == 32:
            return values.withUnsafeBytes { Array($0) }
        case .int32(let values):
            return [UInt8](unsafeUninitializedCapacity: values.count * 3) { bytes, count in
                for (index, value) in values.enumerated() {
                    bytes[3 * index] = UInt8(truncatingIfNeeded: value)
                    bytes[3 * index + 1] = UInt8(truncatingIfNeeded: value >> 8)
                    bytes[3 * index + 2] = UInt8(truncatingIfNeeded: value >> 16)
                }
                count = values.count * 3
            }
        }
    }

    private func header(for format: PCMFormat, dataBytes: Int64) -> [UInt8] {
        let data = UInt32(clamping: dataBytes)
        var bytes: [UInt8] = []
        func append(_ text: String) { bytes += Array(text.utf8) }
        func append32(_ value: UInt32) { withUnsafeBytes(of: value.littleEndian) { bytes += $0 } }
        func append16(_ value: UInt16) { withUnsafeBytes(of: value.littleEndian) { bytes += $0 } }
        append("RIFF"); append32(UInt32(clamping: 36 + Int64(data))); append("WAVE")
        append("fmt "); append32(16); append16(1); append16(UInt16(format.channels))
        let bits = format.depth, frameBytes = format.channels * bits / 8
        append32(UInt32(format.sampleRate)); append32(UInt32(format.sampleRate * frameBytes))
        append16(UInt16(frameBytes)); append16(UInt16(bits))
        append("data"); append32(data)
        return bytes
    }

    private func writeAll(_ bytes: [UInt8], at offset: Int64) throws {
        var done = 0
        try bytes.withUnsafeBytes { buffer in
            while done < buffer.count {
                let n = pwrite(descriptor, buffer.baseAddress! + done, buffer.count - done, off_t(offset) + off_t(done))
                if n < 0 {
                    if errno == EINTR { continue }
                    throw failure()
                }
                done += n
            }
        }
    }

    private func failure() -> OutputError {
        .deviceFailed("writing \(path): \(String(cString: strerror(errno)))")
    }
}

import Foundation

/// A WAV file's PCM at any depth, as raw sample bytes: for lossless comparisons where `PCMAudio`
/// (16-bit) would lose the low bits of a 24-bit file.
public struct WAVFile: Sendable, Equatable {
    public var sampleRate: Int
    public var channels: Int
    public var bitsPerSample: Int
    public var data: [UInt8]

    public var bytesPerFrame: Int { channels * bitsPerSample / 8 }
    public var frameCount: Int { data.count / bytesPerFrame }

    /// Reads a PCM WAV file (plain or WAVE_FORMAT_EXTENSIBLE, any chunk layout).
    public init(_ url: URL) throws {
        let bytes = try [UInt8](Data(contentsOf: url))
        guard bytes.count >= 12, Array(bytes[0..<4]) == Array("RIFF".utf8), Array(bytes[8..<12]) == Array("WAVE".utf8) else {
            throw TestSupportError("\(url.lastPathComponent) is not a WAV file")
        }
        func u32(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16 | Int(bytes[at + 3]) << 24 }
        func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
        var offset = 12
        var format: (rate: Int, channels: Int, bits: Int)?
        while offset + 8 <= bytes.count {
            let id = String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
            let size = u32(offset + 4)
            if id == "fmt " {
                format = (u32(offset + 12), u16(offset + 10), u16(offset + 22))
            } else if id == "data", let format {
                let end = min(bytes.count, offset + 8 + size)
                self.init(sampleRate: format.rate, channels: format.channels, bitsPerSample: format.bits,
                          data: Array(bytes[(offset + 8)..<end]))
                return
            }
            offset += 8 + size + (size & 1)
        }
        throw TestSupportError("\(url.lastPathComponent) has no fmt and data chunks")
    }

    private init(sampleRate: Int, channels: Int, bitsPerSample: Int, data: [UInt8]) {
        self.sampleRate = sampleRate
        self.channels = channels
        self.bitsPerSample = bitsPerSample
        self.data = data
    }

    /// Frames from `start` on.
    public func frames(from start: Int) -> WAVFile {
        WAVFile(sampleRate: sampleRate, channels: channels, bitsPerSample: bitsPerSample,
                data: Array(data[min(data.count, start * bytesPerFrame)...]))
    }

    public static func + (lhs: WAVFile, rhs: WAVFile) -> WAVFile {
        WAVFile(sampleRate: lhs.sampleRate, channels: lhs.channels, bitsPerSample: lhs.bitsPerSample, data: lhs.data + rhs.data)
    }

    /// The first differing frame, for a message that is a line rather than megabytes.
    public func firstDifferentFrame(from other: WAVFile) -> Int? {
        zip(data, other.data).enumerated().first { $0.element.0 != $0.element.1 }.map { $0.offset / bytesPerFrame }
    }
}

extension WAVFile: CustomStringConvertible {
    public var description: String {
        "WAVFile(\(sampleRate) Hz, \(channels) ch, \(bitsPerSample)-bit, \(frameCount) frames)"
    }
}

extension WAVFile {
    /// The samples of a 24-bit file, each as the top 24 bits of an `Int32` (as an S32 sink holds them).
    public func samples24() throws -> [Int32] {
        guard bitsPerSample == 24 else { throw TestSupportError("a \(bitsPerSample)-bit WAV is not 24-bit PCM") }
        return stride(from: 0, to: data.count - 2, by: 3).map {
            Int32(bitPattern: UInt32(data[$0]) << 8 | UInt32(data[$0 + 1]) << 16 | UInt32(data[$0 + 2]) << 24)
        }
    }

    /// The samples of a 32-bit file, as they are.
    public func samples32() throws -> [Int32] {
        guard bitsPerSample == 32 else { throw TestSupportError("a \(bitsPerSample)-bit WAV is not 32-bit PCM") }
        return data.withUnsafeBytes { Array($0.bindMemory(to: Int32.self)) }  // little-endian here
    }

    /// The same audio as `PCMAudio`, for 16-bit files.
    public func pcm16() throws -> PCMAudio {
        guard bitsPerSample == 16 else { throw TestSupportError("a \(bitsPerSample)-bit WAV is not 16-bit PCM") }
        return PCMAudio(sampleRate: sampleRate, channels: channels, samples: PCMAudio.samples(data[...]))
    }
}

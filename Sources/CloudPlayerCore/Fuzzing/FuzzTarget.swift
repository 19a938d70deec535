import Foundation

/// The parsers that meet bytes from outside — files, servers, the config — each as a function
/// of arbitrary bytes, for libFuzzer (`bench/fuzz`) and for the tests that replay the corpus.
/// A target must never crash, hang or leak, whatever it is given; errors are fine.
@_spi(Fuzzing) public enum FuzzTarget: String, CaseIterable, Sendable {
    /// Format sniffing, then the MP3 or Opus decoder to the end, and a seek.
    case decode
    /// The sparse cache's range record.
    case cacheRecord = "cache-record"
    /// `Content-Range` header values.
    case contentRange = "content-range"
    /// WebDAV PROPFIND answers.
    case propfind
    /// The config file (TOML and its checks).
    case config

    /// Decoded frames beyond this are not worth the fuzzer's time.
    static let frameBudget = 1 << 20

    public func run(_ bytes: [UInt8]) {
        switch self {
        case .decode:
            guard let decoder = try? DecoderActor.open(MemoryByteSource(bytes)) else { return }
            var frames = 0
            while frames < Self.frameBudget, let samples = try? decoder.read(maxFrames: 8192), !samples.isEmpty {
                frames += samples.count
            }
            if let total = decoder.info.totalFrames, total > 1 {
                try? decoder.seek(toFrame: total / 2)
                _ = try? decoder.read(maxFrames: 8192)
            }
        case .cacheRecord:
            _ = SparseCacheEntry.parse(String(decoding: bytes, as: UTF8.self))
        case .contentRange:
            _ = ContentRange(String(decoding: bytes, as: UTF8.self))
        case .propfind:
            _ = try? PropfindParser.parse(Data(bytes))
        case .config:
            _ = try? Configuration.parse(String(decoding: bytes, as: UTF8.self), relativeTo: URL(fileURLWithPath: "/nonexistent"))
        }
    }
}

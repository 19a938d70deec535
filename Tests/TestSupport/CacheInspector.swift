import Foundation

/// Reads the loader's cache folder the way a suspicious user would: every `.ranges` record,
/// and the bytes it vouches for, compared with the origin file. Written from the record format,
/// not with the loader's code, so a bug there cannot hide itself here.
public struct CacheInspector {
    public struct Entry {
        public let name: String
        public let length: Int64
        public let ranges: [Range<Int64>]
        public var recordedBytes: Int64 { ranges.reduce(0) { $0 + Int64($1.count) } }
    }

    public let directory: URL

    /// `cacheDirectory` as given to the loader (entries are in its `data` folder).
    public init(cacheDirectory: URL) {
        directory = cacheDirectory.appendingPathComponent("data")
    }

    public var entries: [Entry] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".ranges") }.sorted().compactMap { file in
            guard let text = try? String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8) else { return nil }
            let lines = text.split(separator: "\n")
            guard lines.count >= 5, lines.last == "end", let length = lines.first(where: { $0.hasPrefix("length ") }).flatMap({ Int64($0.dropFirst(7)) }) else { return nil }
            let ranges = lines.dropFirst(4).dropLast().compactMap { line -> Range<Int64>? in
                let fields = line.split(separator: " ").compactMap { Int64($0) }
                return fields.count == 2 ? fields[0]..<fields[1] : nil
            }
            return Entry(name: String(file.dropLast(7)), length: length, ranges: ranges)
        }
    }

    /// Recorded bytes that differ from `origin` (must be 0), and recorded bytes in all.
    public func compare(_ entry: Entry, with origin: Data) throws -> (wrong: Int, recorded: Int64) {
        let data = try Data(contentsOf: directory.appendingPathComponent(entry.name + ".data"))
        var wrong = 0
        for range in entry.ranges {
            let low = Int(range.lowerBound), high = Int(range.upperBound)
            guard high <= data.count, high <= origin.count else {
                wrong += high - low
                continue
            }
            for i in low..<high where data[i] != origin[i] { wrong += 1 }
        }
        return (wrong, entry.recordedBytes)
    }

    /// Whether the cache holds exactly `origin`, whole.
    public func holdsWhole(_ origin: Data) throws -> Bool {
        guard let entry = entries.first(where: { $0.length == Int64(origin.count) }),
              entry.ranges == [0..<Int64(origin.count)] else { return false }
        return try compare(entry, with: origin).wrong == 0
    }
}

/// Runs blocking work (a `ByteSource` read that waits for the network) on a thread of its own,
/// never on the cooperative pool the loader's wake-ups need.
public func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread { continuation.resume(with: Result { try body() }) }
        thread.start()
    }
}

/// Which bytes of a resource are present: sorted, disjoint, non-touching half-open ranges.
///
/// The sparse cache records downloads with it and asks it for the holes of a read, so only
/// missing bytes are ever requested.
package struct ByteRanges: Sendable, Equatable, CustomStringConvertible {
    package private(set) var ranges: [Range<Int64>] = []

    package init() {}

    package init<S: Sequence>(_ ranges: S) where S.Element == Range<Int64> {
        for range in ranges { insert(range) }
    }

    /// Bytes present in all.
    package var count: Int64 { ranges.reduce(0) { $0 + Int64($1.count) } }

    package var isEmpty: Bool { ranges.isEmpty }

    /// Adds `range`, merging it with every range it overlaps or touches.
    package mutating func insert(_ range: Range<Int64>) {
        guard !range.isEmpty else { return }
        // The first range that ends at or after our start may touch us; the first that starts
        // after our end cannot.
        let first = firstIndex { $0.upperBound >= range.lowerBound }
        let last = firstIndex { $0.lowerBound > range.upperBound }
        guard first < last else {
            ranges.insert(range, at: first)
            return
        }
        let merged = min(range.lowerBound, ranges[first].lowerBound)..<max(range.upperBound, ranges[last - 1].upperBound)
        ranges.replaceSubrange(first..<last, with: [merged])
    }

    /// Whether every byte of `range` is present.
    package func contains(_ range: Range<Int64>) -> Bool {
        guard !range.isEmpty else { return true }
        let index = firstIndex { $0.upperBound > range.lowerBound }
        return index < ranges.count && ranges[index].lowerBound <= range.lowerBound
            && ranges[index].upperBound >= range.upperBound
    }

    /// The parts of `range` that are not present, in order: what a read of it must fetch.
    package func missing(in range: Range<Int64>) -> [Range<Int64>] {
        var holes: [Range<Int64>] = []
        var cursor = range.lowerBound
        var index = firstIndex { $0.upperBound > range.lowerBound }
        while cursor < range.upperBound {
            guard index < ranges.count, ranges[index].lowerBound < range.upperBound else {
                holes.append(cursor..<range.upperBound)
                break
            }
            let present = ranges[index]
            if present.lowerBound > cursor { holes.append(cursor..<present.lowerBound) }
            cursor = max(cursor, present.upperBound)
            index += 1
        }
        return holes
    }

    /// How many bytes from `offset` on are present without a gap (0 if `offset` is missing).
    package func presentRun(from offset: Int64) -> Int64 {
        let index = firstIndex { $0.upperBound > offset }
        guard index < ranges.count, ranges[index].lowerBound <= offset else { return 0 }
        return ranges[index].upperBound - offset
    }

    package var description: String {
        "[" + ranges.map { "\($0.lowerBound)..<\($0.upperBound)" }.joined(separator: ", ") + "]"
    }

    /// The first index whose range satisfies `predicate`, which must be false then true along
    /// the (sorted) ranges; `ranges.count` if none does. Binary search: caches hold many ranges.
    private func firstIndex(where predicate: (Range<Int64>) -> Bool) -> Int {
        var low = 0
        var high = ranges.count
        while low < high {
            let middle = (low + high) / 2
            if predicate(ranges[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}

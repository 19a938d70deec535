/// A Xing header's table of contents: for each whole percent of the duration, where in the
/// stream's bytes it lies, in 1/256 of them. Coarse by design: a place found through it is
/// off by up to 1/256 of the file (more where the bitrate swings), so a seek through it is
/// approximate.
package struct XingSeekTable: Equatable {
    private let entries: [UInt8]

    /// The table as the header has it; nil unless it has 100 entries that never go back — a
    /// forged or damaged table is not used (the decoder scans instead).
    package init?(_ entries: [UInt8]) {
        guard entries.count == 100, zip(entries, entries.dropFirst()).allSatisfy({ $0 <= $1 }) else { return nil }
        self.entries = entries
    }

    /// The fraction of the stream's bytes before `fraction` of its duration (both in 0...1).
    ///
    /// An entry is rounded down to 1/256 (LAME writes `floor(256 · bytes / total)`), so each is
    /// taken at the middle of its 1/256, and a line fitted through the entries around the place
    /// smooths away the staircase that rounding leaves where the bitrate is steady; the answer
    /// stays within what the two entries around it allow. (On a 10-minute VBR file, plain
    /// interpolation between entries landed 1.1 s early on average, 2.9 s at worst.)
    package func byteFraction(atTime fraction: Double) -> Double {
        let percent = min(max(fraction, 0), 1) * 100
        let index = min(Int(percent), 99)
        func middle(_ entry: Int) -> Double {
            entry == 0 ? 0 : entry >= 100 ? 256 : Double(entries[entry]) + 0.5
        }
        let points = (max(0, index - 3)...min(100, index + 4)).map { (x: Double($0), y: middle($0)) }
        let meanX = points.map(\.x).reduce(0, +) / Double(points.count)
        let meanY = points.map(\.y).reduce(0, +) / Double(points.count)
        let spread = points.map { ($0.x - meanX) * ($0.x - meanX) }.reduce(0, +)
        let slope = points.map { ($0.x - meanX) * ($0.y - meanY) }.reduce(0, +) / spread
        let fitted = meanY + slope * (percent - meanX)
        let low = Double(entries[index]), high = index < 99 ? Double(entries[index + 1]) + 1 : 256
        return min(max(fitted, low), high) / 256
    }
}

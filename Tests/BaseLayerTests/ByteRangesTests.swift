import Cache
import Testing
import TestSupport

/// ByteRanges against the obvious model: one flag per byte.
@Suite struct RangeSetTests {
    @Test("merging: overlapping and touching ranges become one; empty ranges change nothing")
    func merging() {
        var set = ByteRanges([0..<10, 20..<30])
        set.insert(10..<20)
        #expect(set.ranges == [0..<30])
        set.insert(40..<40)
        #expect(set.ranges == [0..<30])
        set.insert(35..<50)
        set.insert(32..<36)
        #expect(set.ranges == [0..<30, 32..<50])
        set.insert(-5..<100)
        #expect(set.ranges == [-5..<100])
    }

    @Test("holes of a read, present runs and containment")
    func queries() {
        let set = ByteRanges([10..<20, 30..<40])
        #expect(set.missing(in: 0..<50) == [0..<10, 20..<30, 40..<50])
        #expect(set.missing(in: 12..<18) == [])
        #expect(set.missing(in: 15..<35) == [20..<30])
        #expect(set.contains(10..<20) && !set.contains(10..<21) && set.contains(5..<5))
        #expect(set.presentRun(from: 12) == 8 && set.presentRun(from: 20) == 0 && set.presentRun(from: 45) == 0)
        #expect(set.count == 20)
    }

    @Test("random inserts agree with a byte-per-flag model", arguments: 1...25)
    func randomAgainstModel(seed: UInt64) {
        var generator = MutationGenerator(seed: seed)
        let size = 300
        var model = [Bool](repeating: false, count: size)
        var set = ByteRanges()
        for _ in 0..<40 {
            let start = Int.random(in: 0..<size, using: &generator)
            let end = min(size, start + Int.random(in: 0...40, using: &generator))
            for i in start..<end { model[i] = true }
            set.insert(Int64(start)..<Int64(end))
        }
        // Disjoint, sorted, non-touching, and the same bytes as the model.
        for (a, b) in zip(set.ranges, set.ranges.dropFirst()) { #expect(a.upperBound < b.lowerBound) }
        #expect(set.count == Int64(model.filter { $0 }.count))
        let start = Int.random(in: 0..<size, using: &generator)
        let end = Int.random(in: start...size, using: &generator)
        let holes = set.missing(in: Int64(start)..<Int64(end)).flatMap { Array($0) }
        #expect(holes == (start..<end).filter { !model[$0] }.map(Int64.init))
        #expect(set.contains(Int64(start)..<Int64(end)) == (start..<end).allSatisfy { model[$0] })
    }
}

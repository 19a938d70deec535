import Foundation
import FuzzTargets
import Testing
import TestSupport

/// Every input in the fuzzing corpus (`bench/fuzz-corpus/TARGET/`) — seeds, and every crash a
/// fuzzer ever found, kept as a regression — runs through its target without crashing; plus
/// mutations of the seeds, so each run tries a few thousand fresh inputs.
@Suite struct FuzzCorpusTests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../bench/fuzz-corpus").standardizedFileURL

    static func inputs(_ target: FuzzTarget) -> [[UInt8]] {
        let folder = corpus.appendingPathComponent(target.rawValue)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.sorted().compactMap { FileManager.default.contents(atPath: folder.appendingPathComponent($0).path).map(Array.init) }
    }

    @Test("the corpus of every target is there and runs clean", arguments: FuzzTarget.allCases)
    func corpus(_ target: FuzzTarget) async {
        let inputs = Self.inputs(target)
        #expect(!inputs.isEmpty, "no corpus for \(target.rawValue)")
        for input in inputs { await target.run(input) }
    }

    @Test("mutated seeds (flipped, cut, spliced bytes) run clean", arguments: FuzzTarget.allCases)
    func mutations(_ target: FuzzTarget) async {
        var state: UInt64 = 0x5eed_0000 &+ UInt64(target.rawValue.utf8.count)
        func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(max(bound, 1)))
        }
        let seeds = Self.inputs(target)
        for round in 0..<(target == .decode ? 300 : 2000) {
            var bytes = seeds[round % seeds.count]
            switch next(4) {
            case 0: for _ in 0...next(8) where !bytes.isEmpty { bytes[next(bytes.count)] ^= UInt8(1 << next(8)) }
            case 1: bytes = Array(bytes.prefix(next(bytes.count + 1)))
            case 2: if !bytes.isEmpty { bytes.insert(contentsOf: bytes[next(bytes.count)...].prefix(64), at: next(bytes.count)) }
            default: for _ in 0...next(16) where !bytes.isEmpty { bytes[next(bytes.count)] = UInt8(next(256)) }
            }
            await target.run(bytes)
        }
    }
}

/// A deterministic random number generator (SplitMix64) so mutation tests — and the bus fuzzer —
/// repeat exactly.
public struct MutationGenerator: RandomNumberGenerator {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// `bytes` with a few bytes changed, inserted or removed.
    public mutating func mutate(_ bytes: [UInt8]) -> [UInt8] {
        var result = bytes
        for _ in 0..<Int.random(in: 1...4, using: &self) {
            guard !result.isEmpty else { return [UInt8.random(in: 0...255, using: &self)] }
            let index = Int.random(in: 0..<result.count, using: &self)
            switch Int.random(in: 0..<6, using: &self) {
            case 0: result[index] ^= UInt8(1) << UInt8.random(in: 0...7, using: &self)
            case 1: result[index] = UInt8.random(in: 0...255, using: &self)
            case 2: result.insert(UInt8.random(in: 0...255, using: &self), at: index)
            case 3: result.remove(at: index)
            case 4: result[index] = [0x00, 0xFF, 0x7F, 0x80][Int.random(in: 0..<4, using: &self)]
            default: result = Array(result[..<index])
            }
        }
        return result
    }
}

import CSampleGain
import Model
import Testing

/// ReplayGain's C loop against the same arithmetic written plainly: every sample scaled in the
/// width's float type, held within the width, rounded to nearest (halves to even) — for lengths
/// that are and are not a multiple of the vector width, gains that lower, keep and clip.
@Suite struct SampleGainTests {
    static let gains = [0.0, 0.25, 0.5011872336272722, 1.0, 1.7782794100389228, 4.0]

    /// The loop a processor without AVX2 runs, checked here whatever this one has.
    @Test(arguments: gains)
    func withoutAVX2(gain: Double) {
        var generator = SystemRandomNumberGenerator()
        for length in [0, 1, 7, 8, 9, 4099] {
            let values16 = (0..<length).map { _ in Int16.random(in: .min ... .max, using: &generator) } + [Int16.min, Int16.max]
            var scaled16 = values16
            scaled16.withUnsafeMutableBufferPointer { cp_scale_int16_without_avx2($0.baseAddress, $0.count, Float(gain)) }
            var chosen16 = PCMSamples.int16(values16)
            chosen16.scale(by: gain)
            #expect(chosen16 == .int16(scaled16), "16-bit, length \(length), gain \(gain)")
            let values24 = (0..<length).map { _ in Int32.random(in: -8_388_608 ... 8_388_607, using: &generator) } + [-8_388_608, 8_388_607]
            var scaled24 = values24
            scaled24.withUnsafeMutableBufferPointer { cp_scale_int24_without_avx2($0.baseAddress, $0.count, gain) }
            var chosen24 = PCMSamples.int32(values24)
            chosen24.scale(by: gain)
            #expect(chosen24 == .int32(scaled24), "24-bit, length \(length), gain \(gain)")
        }
    }

    @Test(arguments: gains)
    func sixteenBit(gain: Double) {
        var generator = SystemRandomNumberGenerator()
        for length in [0, 1, 7, 8, 9, 15, 16, 17, 63, 4099] {
            var values = (0..<length).map { _ in Int16.random(in: .min ... .max, using: &generator) }
            values += [Int16.min, Int16.max, 0, -1, 1].prefix(length)
            var samples = PCMSamples.int16(values)
            samples.scale(by: gain)
            let expected = values.map { value -> Int16 in
                let scaled = min(max(Float(value) * Float(gain), -32768), 32767)
                return Int16(scaled.rounded(.toNearestOrEven))
            }
            #expect(samples == .int16(expected), "length \(length), gain \(gain)")
        }
    }

    @Test(arguments: gains)
    func twentyFourBit(gain: Double) {
        var generator = SystemRandomNumberGenerator()
        for length in [0, 1, 3, 4, 5, 9, 1027] {
            var values = (0..<length).map { _ in Int32.random(in: -8_388_608 ... 8_388_607, using: &generator) }
            values += [-8_388_608, 8_388_607, 0, -1, 1].prefix(length)
            var samples = PCMSamples.int32(values)
            samples.scale(by: gain)
            let expected = values.map { value -> Int32 in
                Int32(min(max(Double(value) * gain, -8_388_608), 8_388_607).rounded(.toNearestOrEven))
            }
            #expect(samples == .int32(expected), "length \(length), gain \(gain)")
        }
    }

    @Test(arguments: gains)
    func thirtyTwoBit(gain: Double) {
        var generator = SystemRandomNumberGenerator()
        var values = (0..<1027).map { _ in Int32.random(in: .min ... .max, using: &generator) }
        values += [.min, .max, 0, -1, 1]
        var samples = PCMSamples.int32(values)
        samples.scale(by: gain, depth: 32)
        let expected = values.map { value -> Int32 in
            Int32(min(max(Double(value) * gain, -2_147_483_648), 2_147_483_647).rounded(.toNearestOrEven))
        }
        #expect(samples == .int32(expected), "gain \(gain)")
    }

    /// A gain of 1 changes nothing: tracks without a tag, and gapless joins, stay bit-exact.
    @Test func unityIsExact() {
        let values = (0..<1001).map { Int16(truncatingIfNeeded: $0 &* 977) }
        var samples = PCMSamples.int16(values)
        samples.scale(by: 1)
        #expect(samples == .int16(values))
    }
}

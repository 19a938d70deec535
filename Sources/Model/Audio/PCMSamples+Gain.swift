import CSampleGain

extension PCMSamples {
    /// Scales the samples by `factor`, rounded to the nearest step of their width (halves to
    /// even) and held within it (a gain above 1 with clip protection off can clip). No
    /// dither: a gain of 1 and a join between two tracks of one gain come out exact. In place (the
    /// payload is taken out first so the array is not copied) by a C loop, eight samples at a time.
    /// `depth`: the depth `int32` samples travel at (`PCMFormat.depth`: 24 or 32).
    package mutating func scale(by factor: Double, depth: Int = 24) {
        switch self {
        case .int16(var samples):
            self = .int16([])
            samples.withUnsafeMutableBufferPointer { cp_scale_int16($0.baseAddress, $0.count, Float(factor)) }
            self = .int16(samples)
        case .int32(var samples):
            self = .int32([])
            samples.withUnsafeMutableBufferPointer {
                if depth == 32 { cp_scale_int32($0.baseAddress, $0.count, factor) } else { cp_scale_int24($0.baseAddress, $0.count, factor) }
            }
            self = .int32(samples)
        }
    }
}

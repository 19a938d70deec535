extension PCMSamples {
    /// The samples scaled by `factor`, rounded to the nearest step of their width and held within
    /// it (a gain above 1 with clip protection off can clip). No dither: a gain of 1 and a join
    /// between two tracks of one gain come out exact.
    package func scaled(by factor: Double) -> PCMSamples {
        switch self {
        case .int16(let samples):
            // Float holds a 16-bit sample times any sensible gain to well under 1/1000 of a step.
            let gain = Float(factor)
            return .int16(samples.map { sample in
                Int16((Float(sample) * gain).rounded().clamped(to: -32768...32767))
            })
        case .int32(let samples):
            // 24-bit values: Double, as Float's 24-bit mantissa would round them.
            return .int32(samples.map { sample in
                Int32((Double(sample) * factor).rounded().clamped(to: -8_388_608...8_388_607))
            })
        }
    }
}

extension Comparable {
    fileprivate func clamped(to limits: ClosedRange<Self>) -> Self {
        min(max(self, limits.lowerBound), limits.upperBound)
    }
}

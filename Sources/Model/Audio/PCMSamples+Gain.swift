extension PCMSamples {
    /// The samples scaled by `factor`, rounded to the nearest step of their width (halves away
    /// from zero) and held within it (a gain above 1 with clip protection off can clip). No
    /// dither: a gain of 1 and a join between two tracks of one gain come out exact. In place,
    /// adding ±0.5 and truncating: `map` with `rounded()` (a libm call a sample) cost half the
    /// decoding time again on a 10-minute MP3, this a third (bench/decode's ReplayGain rows).
    package func scaled(by factor: Double) -> PCMSamples {
        switch self {
        case .int16(var samples):
            // Float holds a 16-bit sample times any sensible gain to well under 1/1000 of a step.
            let gain = Float(factor)
            samples.withUnsafeMutableBufferPointer { buffer in
                for index in buffer.indices {
                    let scaled = Float(buffer[index]) * gain
                    buffer[index] = Int16(min(max(scaled + (scaled < 0 ? -0.5 : 0.5), -32768), 32767))
                }
            }
            return .int16(samples)
        case .int32(var samples):
            // 24-bit values: Double, as Float's 24-bit mantissa would round them.
            samples.withUnsafeMutableBufferPointer { buffer in
                for index in buffer.indices {
                    let scaled = Double(buffer[index]) * factor
                    buffer[index] = Int32(min(max(scaled + (scaled < 0 ? -0.5 : 0.5), -8_388_608), 8_388_607))
                }
            }
            return .int32(samples)
        }
    }
}

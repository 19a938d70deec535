import CSoundTouch
import Model

/// Plays a stream faster or slower with its pitch kept: SoundTouch's WSOLA, chosen over Rubber
/// Band for its cost — about 10 CPU seconds an hour of audio against 120 (R2) or 340 (R3), with
/// the length exact and a tone's pitch within 0.03 % (bench/speed/libs, docs/benchmarks.md).
///
/// The output at a speed other than 1 passes every sample through one of these; at 1 none is
/// made, so that path stays bit-exact. SoundTouch never says where its output stands in the
/// input, so this counts it: each frame put in owes `1 / tempo` frames out, and what is owed and
/// not yet out is where the next frame put in will be heard, relative to what came out.
final class TimeStretcher {
    let format: PCMFormat
    /// Output frames per input frame's worth of time: 2 plays twice as fast.
    private(set) var tempo: Double
    private let handle: HANDLE
    /// Frames the input so far will come to, less those received: the stretcher's delay.
    private var owed = 0.0

    /// A stretcher for `format` at `tempo`; nil if SoundTouch cannot take the format.
    init?(format: PCMFormat, tempo: Double) {
        guard let handle = soundtouch_createInstance() else { return nil }
        guard soundtouch_setChannels(handle, UInt32(format.channels)) != 0,
              soundtouch_setSampleRate(handle, UInt32(format.sampleRate)) != 0 else {
            soundtouch_destroyInstance(handle)
            return nil
        }
        self.handle = handle
        self.format = format
        self.tempo = tempo
        soundtouch_setTempo(handle, Float(tempo))
    }

    deinit {
        soundtouch_destroyInstance(handle)
    }

    /// Output frames still inside: what is put in now is heard after these.
    var delayFrames: Int64 { Int64(owed.rounded()) }

    /// Whether nothing is inside.
    var isEmpty: Bool { owed < 0.5 }

    /// From now on, `tempo`: what is inside is played at it too.
    func setTempo(_ tempo: Double) {
        self.tempo = tempo
        soundtouch_setTempo(handle, Float(tempo))
    }

    /// Puts `samples` in; returns what is ready to be played.
    func process(_ samples: PCMSamples) -> PCMSamples {
        let frames = samples.count / format.channels
        guard frames > 0 else { return receive() }
        switch samples {
        case .int16(let values):
            values.withUnsafeBufferPointer { soundtouch_putSamples_i16(handle, $0.baseAddress, UInt32(frames)) }
        case .int32(let values):
            // 24- or 32-bit: SoundTouch's own samples are floats.
            let scale = format.fullScale
            let floats = values.map { Float(Double($0) / scale) }
            _ = floats.withUnsafeBufferPointer { soundtouch_putSamples(handle, $0.baseAddress, UInt32(frames)) }
        }
        owed += Double(frames) / tempo
        return receive()
    }

    /// Everything still inside, played out to the frame count its input is due (SoundTouch pads
    /// with silence and trims to it); afterwards the stretcher is empty.
    func flush() -> PCMSamples {
        _ = soundtouch_flush(handle)
        let rest = receive()
        owed = 0
        soundtouch_clear(handle)
        return rest
    }

    /// Drops everything inside (a seek, a stop).
    func clear() {
        soundtouch_clear(handle)
        owed = 0
    }

    private func receive() -> PCMSamples {
        let ready = Int(soundtouch_numSamples(handle))
        let channels = format.channels
        guard ready > 0 else { return format.isWide ? .int32([]) : .int16([]) }
        if format.isWide {
            var floats = [Float](repeating: 0, count: ready * channels)
            let got = Int(floats.withUnsafeMutableBufferPointer { soundtouch_receiveSamples(handle, $0.baseAddress, UInt32(ready)) })
            owed -= Double(got)
            // In Double: a Float cannot hold 2^31 - 1, the top of 32-bit samples.
            let scale = format.fullScale
            return .int32(floats.prefix(got * channels).map { Int32(max(-scale, min(scale - 1, (Double($0) * scale).rounded()))) })
        }
        var values = [Int16](repeating: 0, count: ready * channels)
        let got = Int(values.withUnsafeMutableBufferPointer { soundtouch_receiveSamples_i16(handle, $0.baseAddress, UInt32(ready)) })
        owed -= Double(got)
        return .int16(Array(values.prefix(got * channels)))
    }
}

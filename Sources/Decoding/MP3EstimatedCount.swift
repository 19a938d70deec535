/// What follows an MP3 seek that landed through the Xing seek table (`MP3Landing`, not exact),
/// until the next seek: libmpg123 counts frames from the table's estimate, so neither the
/// position it gives nor the frame at which it would cut the encoder's padding is the file's.
///
/// The end is therefore cut here, counted from the end of the stream instead of from the start:
/// the last `padding` frames decoded are held back at each read, and dropped when the stream
/// ends after them. (Computing the end from the declared length would need the landing's true
/// frame number, which only the bytes before it tell — and they are what the seek did not
/// fetch.) That is exact when the stream has the frames its Xing header declares; frames
/// appended after those (which libmpg123 would play whole) lose their last `padding` instead.
struct MP3EstimatedCount {
    let landing: MP3Landing
    /// Sample frames to drop at the end of the stream: the LAME padding less libmpg123's decoder
    /// delay (529), which is what its own gapless end cuts from the decoded frames
    /// (`end = frames · 1152 − padding + 529`); none when the padding is shorter than the delay.
    let padding: Int
    /// The bytes before the landing arrived and its frames were counted (once: `counted`);
    /// `positionKnown` if that gave the landing's true frame, so the position was corrected.
    var counted = false
    var positionKnown = false
    /// The last `padding` frames decoded so far, interleaved: played at the next read unless the
    /// stream ends after them.
    private var withheld: [Int16] = []

    init(landing: MP3Landing, encoderPadding: Int, decoderDelay: Int) {
        self.landing = landing
        self.padding = max(0, encoderPadding - max(0, decoderDelay))
    }

    /// How a stretch of decoding ended.
    enum Stop {
        /// The buffer filled: the stream goes on.
        case full
        /// The stream ended (MPG123_DONE): what is held back is the padding.
        case streamEnd
        /// An error or a change of format ended it: the stream did not end there, so nothing
        /// held back is padding.
        case failure
    }

    /// Samples held back now, to go in front of the next read's.
    var carried: [Int16] { withheld }

    /// Of `samples` (the `carried` ones first, then those just decoded), keeps the ones to play
    /// now: all but the last `padding` frames, which wait; at the stream's end without them;
    /// after a failure all of them.
    mutating func release(_ samples: inout [Int16], channels: Int, stop: Stop) {
        let held = min(samples.count, padding * channels)
        withheld = stop == .full ? Array(samples.suffix(held)) : []
        if stop != .failure { samples.removeLast(held) }
    }
}

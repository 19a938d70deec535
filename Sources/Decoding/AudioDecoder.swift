import Model

/// One open track being decoded. Like MPD's decoder plugins: one small interface, one file per codec.
///
/// A decoder is used only on the `DecoderActor`'s thread: its reads may block on the `ByteSource`.
package protocol AudioDecoder: AnyObject {
    /// Codec, format and length. No tags: `DecoderActor` reads those as the library does.
    /// It may change at a read (a chained Ogg stream's link of another rate or channel count):
    /// that read's samples are all in the new format, and positions count in its rate.
    var info: TrackInfo { get }

    /// The frame the next `read` starts at.
    var position: Int64 { get }

    /// Moves to `frame` exactly (sample-accurate) — but for an MP3 seek through a Xing seek
    /// table, which lands near it (`MP3Decoder`).
    func seek(toFrame frame: Int64) throws

    /// Decodes up to `maxFrames` frames of interleaved samples, at the width `info.format` says;
    /// none means the end.
    /// Throws `DecoderError.truncated` at an end that comes before the length the file declares.
    /// An error met after some samples were decoded is thrown by the next call (`HeldFailure`),
    /// so every sample decoded before it is played.
    func read(maxFrames: Int) throws -> PCMSamples

    /// Bytes of the source the decoder has taken in so far: where in a live stream the samples
    /// decoded last came from, to time the titles the stream announced at byte offsets.
    var inputPosition: Int64 { get }

    /// The frame (as `position` counts) at which the audio that starts at input byte `offset`
    /// begins, for a stream of frames the decoder walks itself (ADTS), among those it decoded
    /// last; nil where it cannot say exactly (a title is then placed by its share of a read).
    func frame(atInput offset: Int64) -> Int64?

    /// A link of a chained Ogg stream that began in the samples the last read returned — a live
    /// stream's next song, with its own comments — and how many frames into them; taken once.
    func takeLinkStart() -> LinkStart?
}

extension AudioDecoder {
    package func takeLinkStart() -> LinkStart? { nil }
    package func frame(atInput offset: Int64) -> Int64? { nil }
    /// Decoders of files only (MP4, WAV/AIFF) never play a live stream.
    package var inputPosition: Int64 { 0 }
}

/// Where a chained stream's new link begins in the samples of a read, and what it is called.
package struct LinkStart: Sendable, Equatable {
    package var frame: Int
    package var tags: TrackTags
}

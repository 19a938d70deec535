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
}

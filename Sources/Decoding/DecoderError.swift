import Base
import Model

/// Why a track could not be decoded. Messages are one line, for a person.
package enum DecoderError: Error, CustomStringConvertible, Equatable {
    case empty
    case notAudio
    case unsupportedFormat(String)
    case invalidStream(AudioCodec, String)
    case decodeFailed(AudioCodec, String)
    case formatChanged(AudioCodec)
    case truncated(playedSeconds: Double, expectedSeconds: Double?)
    /// A WAV whose data size is 0xFFFFFFFF: played to the file's end, which may be all of it.
    case sizeUnstated(AudioCodec, playedSeconds: Double)

    package var description: String {
        switch self {
        case .empty:
            "empty file"
        case .notAudio:
            "not an audio file (no MP3 or AAC frames, FLAC, Ogg Opus/Vorbis, MP4, WAV or AIFF header found)"
        case .unsupportedFormat(let name):
            "unsupported format: \(name) (cloudplayerd plays MP3, Opus, FLAC, Ogg Vorbis, AAC (in MP4 or ADTS) and ALAC, WAV and AIFF)"
        case .invalidStream(let codec, let reason):
            "cannot open as \(codec.rawValue): \(reason)"
        case .decodeFailed(let codec, let reason):
            "\(codec.rawValue) decoding failed: \(reason)"
        case .formatChanged(let codec):
            "\(codec.rawValue) data is damaged: the stream changes sample rate or channels midway"
        case .truncated(let played, let expected?):
            "file is truncated or damaged: its audio ends at \(Self.clock(played)) of \(Self.clock(expected))"
        case .truncated(let played, nil):
            "file is truncated: audio ends at \(Self.clock(played)), before the end of the stream"
        case .sizeUnstated(let codec, let played):
            "\(codec.rawValue) header does not state the audio's size (0xFFFFFFFF): played to the file's end, \(Self.clock(played))"
        }
    }

    private static func clock(_ seconds: Double) -> String {
        let whole = Int(seconds)
        return "\(whole / 60):\((whole % 60).zeroPadded(2)).\(Int((seconds * 10).rounded(.down)) % 10)"
    }
}

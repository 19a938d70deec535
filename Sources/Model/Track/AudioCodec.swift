/// The codec an audio file was recognised as, from its bytes.
package enum AudioCodec: String, Sendable {
    case mp3 = "MP3"
    case opus = "Opus"
    case flac = "FLAC"
    case vorbis = "Vorbis"
    case wav = "WAV"
    case aac = "AAC"
    case alac = "ALAC"
    case aiff = "AIFF"
}

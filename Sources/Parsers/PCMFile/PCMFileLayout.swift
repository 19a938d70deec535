/// Where a WAV or AIFF file keeps its audio, what shape the audio has, and where its tag chunks
/// are: all a decoder needs to read any frame with one ranged read, and a tag reader to fetch
/// only the chunks that hold tags.
package struct PCMFileLayout: Sendable, Equatable {
    package enum Container: Sendable, Equatable {
        case wav
        case aiff
    }

    /// A chunk that holds tags.
    package enum TagChunk: Sendable, Equatable {
        /// RIFF `LIST` of type `INFO` (the range is its subchunks).
        case riffInfo
        /// An ID3v2 tag in an `id3 ` or `ID3 ` chunk.
        case id3
        /// AIFF's text chunks: `NAME`, `AUTH`, `(c) `, `ANNO`.
        case aiffText(String)
    }

    package struct TagPlace: Sendable, Equatable {
        package var chunk: TagChunk
        package var range: Range<Int64>
    }

    /// What the header says of the audio's size when the file does not hold that much.
    package enum StatedSize: Sendable, Equatable {
        /// WAV's 0xFFFFFFFF: a writer that never came back to fill it in (a recorder, a stream).
        case unstated
        /// More bytes than the file has: cut short, or a header that lies.
        case beyondFile(Int64)
    }

    package var container: Container
    package var sampleRate: Int
    package var channels: Int
    package var encoding: PCMSampleEncoding
    package var dataStart: Int64
    /// The audio bytes present: the stated size, cut to the file's end and to whole frames.
    package var dataLength: Int64
    /// Nil when the file holds all the header states.
    package var statedSize: StatedSize?
    package var tags: [TagPlace]

    package var frameBytes: Int { channels * encoding.bytes }
    package var totalFrames: Int64 { dataLength / Int64(frameBytes) }
}

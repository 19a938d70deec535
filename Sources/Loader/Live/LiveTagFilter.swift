import Model
import Parsers

/// Takes ID3v2 tags out of a station's audio before the decoder sees it, and says what they name.
///
/// An Icecast mount fed by ffmpeg begins with ffmpeg's ID3v2.4 tag — the file's tags and its
/// cover — which a listener who arrives as the source connects receives first; some stations
/// send a tag between songs. A decoder that meets the tag looks for frames inside it and may take
/// a picture's bytes for a frame header (one did: "8000 Hz", then no sample). Here each tag is
/// skipped by its declared size, however many reads it takes to arrive, or — ffmpeg's, whose
/// size is 0 — frame by frame (`ID3v2StreamTag`). The bytes handed on are the audio alone; the
/// offsets of what was taken out let the ICY titles of the same connection be placed in them.
package struct LiveTagFilter {
    /// The most of one tag kept to read its titles: text frames come before a picture.
    static let keptOfTag = 64 << 10
    /// The largest frame a walked tag may have (a 16 MiB picture and its header): a larger size
    /// read where a frame should begin is where the frames ended.
    static let largestFrame = (16 << 20) + 1024

    private enum State {
        case audio
        /// Inside a tag: `remaining` bytes of it still to skip.
        case sized(remaining: Int)
        /// Walking a tag that declared no size: `skip` bytes of the current frame still to pass.
        case walking(major: UInt8, skip: Int)
    }

    private var state = State.audio
    /// Bytes not yet known to be audio or tag (the start of a header that has not all come).
    private var held: [UInt8] = []
    /// The start of the tag being skipped (up to `keptOfTag`), and its length so far.
    private var tag: [UInt8] = []
    private var tagLength = 0
    /// Bytes taken in, and audio bytes given out.
    private(set) var taken: Int64 = 0
    private(set) var given: Int64 = 0
    /// Tags taken out: where each began in the input, how long it was, and the audio offset it
    /// was taken out at — the recent ones, for `audioOffset(ofInput:)`.
    private var cuts: [(input: Int64, length: Int64, at: Int64)] = []
    /// The bytes of the tags taken out before the oldest cut kept.
    private var removedBeforeKept: Int64 = 0

    package init() {}

    /// Filters the next bytes of the stream: the audio among them (and among those held back
    /// before), and what the tags that ended in them name, each at the audio offset it was taken out at.
    package mutating func feed(_ input: [UInt8]) -> (audio: [UInt8], tags: [StreamTitleChange]) {
        let heldBefore = Int64(held.count)
        var data = held
        data += input
        held = []
        let base = taken - heldBefore  // the input offset of data[0]
        taken += Int64(input.count)
        var audio: [UInt8] = []
        audio.reserveCapacity(data.count)
        var found: [StreamTitleChange] = []
        var index = 0
        while index < data.count {
            switch state {
            case .audio:
                guard let start = data[index...].firstIndex(of: 0x49) else {
                    audio += data[index...]
                    index = data.count
                    continue
                }
                audio += data[index..<start]
                index = start
                switch ID3v2StreamTag.at(data[start...]) {
                case .notATag:
                    audio.append(data[start])
                    index += 1
                case .needMore:
                    held = Array(data[start...])
                    index = data.count
                case .sized(let length, _):
                    beginTag(at: base + Int64(start), audioOffset: given + Int64(audio.count))
                    state = .sized(remaining: length)
                case .frames(let major):
                    beginTag(at: base + Int64(start), audioOffset: given + Int64(audio.count))
                    keep(data[start..<start + ID3v2StreamTag.headerLength])
                    index += ID3v2StreamTag.headerLength
                    state = .walking(major: major, skip: 0)
                }
            case .sized(let remaining):
                let count = min(remaining, data.count - index)
                keep(data[index..<index + count])
                index += count
                if count == remaining {
                    found.append(endTag(tags: ID3v2Parser.parse(tag[...])))
                    state = .audio
                } else {
                    state = .sized(remaining: remaining - count)
                }
            case .walking(let major, let skip) where skip > 0:
                let count = min(skip, data.count - index)
                keep(data[index..<index + count])
                index += count
                state = .walking(major: major, skip: skip - count)
            case .walking(let major, _):
                if data.count - index < ID3v2StreamTag.headerLength, data[index] != 0 {
                    held = Array(data[index...])
                    index = data.count
                } else if let length = ID3v2StreamTag.frameLength(data[index...], major: major), length <= Self.largestFrame {
                    state = .walking(major: major, skip: length)
                } else if data[index] == 0 {
                    // Padding after the frames.
                    keep(data[index..<index + 1])
                    index += 1
                } else {
                    found.append(endTag(tags: ID3v2StreamTag.tags(ofWalked: tag, bodyLength: tagLength - ID3v2StreamTag.headerLength)))
                    state = .audio
                }
            }
        }
        given += Int64(audio.count)
        return (audio, found)
    }

    /// The stream ended: what was held back to be told apart is audio, unless it is part of a tag.
    package mutating func finish() -> [UInt8] {
        defer { held = [] }
        guard case .audio = state else { return [] }
        given += Int64(held.count)
        return held
    }

    /// Where the audio byte that came at input offset `offset` is among the bytes given out (a
    /// place inside a tag: where the tag was taken out). An ICY title block comes at an offset
    /// of the input, which tags taken out before it move.
    package func audioOffset(ofInput offset: Int64) -> Int64 {
        var removed = removedBeforeKept
        for cut in cuts {
            if offset < cut.input { break }
            if offset < cut.input + cut.length { return cut.at }
            removed += cut.length
        }
        return offset - removed
    }

    private mutating func beginTag(at input: Int64, audioOffset: Int64) {
        tag = []
        tagLength = 0
        cuts.append((input: input, length: 0, at: audioOffset))
    }

    private mutating func keep(_ bytes: ArraySlice<UInt8>) {
        tagLength += bytes.count
        if tag.count < Self.keptOfTag { tag += bytes.prefix(Self.keptOfTag - tag.count) }
        cuts[cuts.count - 1].length = Int64(tagLength)
    }

    private mutating func endTag(tags: TrackTags) -> StreamTitleChange {
        let done = StreamTitleChange(offset: cuts[cuts.count - 1].at, tags: tags)
        tag = []
        if cuts.count > 16 {
            removedBeforeKept += cuts.removeFirst().length
        }
        return done
    }
}

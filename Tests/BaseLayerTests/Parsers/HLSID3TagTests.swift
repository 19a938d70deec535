import ComponentTestSupport
import Foundation
import Model
import Parsers
import Testing

/// The ID3 tags of HLS: packed audio's PRIV time stamp, timed metadata's song, from tags built
/// byte by byte and from tags mutagen writes.
struct HLSID3TagTests {
    private static let owner = Array("com.apple.streaming.transportStreamTimestamp".utf8)

    private func tag(major: UInt8, _ frames: [UInt8]) -> [UInt8] {
        Array("ID3".utf8) + [major, 0, 0, 0, 0, UInt8(frames.count >> 7 & 0x7F), UInt8(frames.count & 0x7F)] + frames
    }

    /// A v2.3 frame (plain size; under 128 bytes the v2.4 syncsafe size is the same bytes).
    private func frame(_ id: String, _ data: [UInt8]) -> [UInt8] {
        Array(id.utf8) + [0, 0, 0, UInt8(data.count), 0, 0] + data
    }

    private func timestamp(_ value: UInt64) -> [UInt8] {
        frame("PRIV", Self.owner + [0] + (0..<8).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) })
    }

    @Test("PRIV transportStreamTimestamp: the 33-bit PTS, the size of the tag, in v2.3 and v2.4", arguments: [UInt8(3), 4])
    func packedAudioTimestamp(major: UInt8) {
        let bytes = tag(major: major, timestamp(0x1_2345_6789) + frame("TIT2", [0] + Array("Live".utf8))) + [0xFF, 0xF1, 0x50]
        let read = HLSID3Tag.read(bytes[...])
        #expect(read == HLSID3Tag(timestamp: 0x1_2345_6789, tags: TrackTags(title: "Live"), size: bytes.count - 3))
    }

    @Test("only the low 33 bits of the time stamp count; another owner's PRIV or a short one is no time stamp")
    func timestampEdges() {
        #expect(HLSID3Tag.read(tag(major: 4, timestamp(0xFFFF_FFFF_FFFF_FFFF))[...])?.timestamp == 0x1_FFFF_FFFF)
        let other = frame("PRIV", Array("com.example.other".utf8) + [0, 0, 0, 0, 0, 0, 0, 0, 9])
        let short = frame("PRIV", Self.owner + [0, 1, 2, 3])
        #expect(HLSID3Tag.read(tag(major: 4, other + short)[...]) == HLSID3Tag(size: 10 + other.count + short.count))
    }

    @Test("the song from TXXX TITLE/ARTIST, or from a TXXX StreamTitle, when TIT2/TPE1 are absent")
    func userTextSong() {
        func txxx(_ description: String, _ value: String) -> [UInt8] { frame("TXXX", [3] + Array(description.utf8) + [0] + Array(value.utf8)) }
        let plain = HLSID3Tag.read(tag(major: 4, txxx("title", "T") + txxx("ARTIST", "A"))[...])
        #expect(plain?.tags.title == "T" && plain?.tags.artist == "A")
        let icy = HLSID3Tag.read(tag(major: 4, txxx("StreamTitle", "Some Band - Some Song"))[...])
        #expect(icy?.tags.title == "Some Song" && icy?.tags.artist == "Some Band")
        let both = HLSID3Tag.read(tag(major: 4, frame("TIT2", [0] + Array("Own".utf8)) + txxx("TITLE", "Other"))[...])
        #expect(both?.tags.title == "Own")
    }

    @Test("bytes that are not an ID3v2 tag give nil; a tag cut short gives what is whole")
    func notATag() {
        #expect(HLSID3Tag.read([0xFF, 0xF1, 0x50, 0x80][...]) == nil)
        #expect(HLSID3Tag.read([][...]) == nil)
        let whole = tag(major: 4, timestamp(90000) + frame("TIT2", [0] + Array("Cut".utf8)))
        let cut = HLSID3Tag.read(whole.prefix(whole.count - 2))
        #expect(cut == HLSID3Tag(timestamp: 90000, size: whole.count))
    }

    @Test("a tag mutagen writes with PRIV, TIT2 and TPE1")
    func mutagenTag() throws {
        let fixtures = try ParserFixtures()
        try fixtures.write("tag.id3", [])
        try fixtures.run("python3", ["-c", """
            from mutagen.id3 import ID3, PRIV, TIT2, TPE1
            tag = ID3()
            tag.add(PRIV(owner="com.apple.streaming.transportStreamTimestamp", data=(8589934591).to_bytes(8, "big")))
            tag.add(TIT2(encoding=1, text="Título"))
            tag.add(TPE1(encoding=3, text="Artíst"))
            tag.save("tag.id3", v2_version=4)
            """])
        let bytes = try fixtures.bytes("tag.id3")
        let read = HLSID3Tag.read(bytes[...])
        #expect(read == HLSID3Tag(timestamp: 8_589_934_591, tags: TrackTags(title: "Título", artist: "Artíst"), size: bytes.count))
    }
}

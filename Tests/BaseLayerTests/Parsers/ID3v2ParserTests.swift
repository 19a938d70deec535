import Model
import Parsers
import Testing

/// ID3v2 features that the tools here do not write (v2.2, unsynchronisation, extended headers,
/// v2.4 frame flags, old iTunes' plain frame sizes), built byte by byte.
struct ID3v2ParserTests {
    private func syncsafe(_ value: Int) -> [UInt8] {
        [UInt8(value >> 21 & 0x7F), UInt8(value >> 14 & 0x7F), UInt8(value >> 7 & 0x7F), UInt8(value & 0x7F)]
    }

    private func plain(_ value: Int, bytes: Int = 4) -> [UInt8] {
        (0..<bytes).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }

    private func tag(major: UInt8, flags: UInt8 = 0, _ body: [UInt8]) -> [UInt8] {
        Array("ID3".utf8) + [major, 0, flags] + syncsafe(body.count) + body
    }

    private func frame23(_ id: String, _ data: [UInt8], format: UInt8 = 0) -> [UInt8] {
        Array(id.utf8) + plain(data.count) + [0, format] + data
    }

    private func frame24(_ id: String, _ data: [UInt8], format: UInt8 = 0) -> [UInt8] {
        Array(id.utf8) + syncsafe(data.count) + [0, format] + data
    }

    private func text(_ value: String) -> [UInt8] { [3] + Array(value.utf8) }

    @Test func version22ThreeLetterFramesAndPicture() {
        func frame(_ id: String, _ data: [UInt8]) -> [UInt8] { Array(id.utf8) + plain(data.count, bytes: 3) + data }
        let image: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 1, 2, 3]
        let body = frame("TT2", [0] + Array("Old".utf8)) + frame("TP1", [0] + Array("Band".utf8))
            + frame("TAL", [0] + Array("LP".utf8)) + frame("TRK", [0] + Array("05/10".utf8))
            + frame("TYE", [0] + Array("1987".utf8)) + frame("TCO", [0] + Array("(17)".utf8))
            + frame("TPA", [0] + Array("1/2".utf8)) + frame("TP2", [0] + Array("VA".utf8))
            + frame("PIC", [0] + Array("PNG".utf8) + [3] + Array("desc".utf8) + [0] + image)
            + [UInt8](repeating: 0, count: 20)
        let tags = ID3v2Parser.parse(tag(major: 2, body)[...])
        #expect(tags == TrackTags(title: "Old", artist: "Band", album: "LP", albumArtist: "VA", trackNumber: 5, genre: "Rock",
                                  artwork: Artwork(data: image, mimeType: "image/png"), year: 1987, discNumber: 1, more: [.date: "1987"]))
    }

    @Test func version23UnsynchronisedWithExtendedHeader() {
        // A picture whose bytes hold 0xFF 0x00 and 0xFF 0xE0, which unsynchronisation escapes.
        let image: [UInt8] = [0xFF, 0xD8, 0xFF, 0x00, 0xFF, 0xE0, 7]
        let body = frame23("TIT2", text("Sync")) + frame23("APIC", [0] + Array("image/jpeg".utf8) + [0, 3, 0] + image)
        var escaped: [UInt8] = []
        for byte in body {
            if let last = escaped.last, last == 0xFF, byte == 0 || byte & 0xE0 == 0xE0 { escaped.append(0) }
            escaped.append(byte)
        }
        let extended = plain(6) + [0, 0] + plain(0)
        let tags = ID3v2Parser.parse(tag(major: 3, flags: 0xC0, extended + escaped)[...])
        #expect(tags.title == "Sync")
        #expect(tags.artwork == Artwork(data: image, mimeType: "image/jpeg"))
    }

    @Test func version23SkipsCompressedAndReadsGroupedFrames() {
        let body = frame23("TIT2", [0x78, 0x9C, 1, 2], format: 0x80) + frame23("TPE1", [7] + text("Grouped"), format: 0x20)
            + frame23("TIT2", text("Plain"))
        let tags = ID3v2Parser.parse(tag(major: 3, body)[...])
        #expect(tags.title == "Plain")
        #expect(tags.artist == "Grouped")
    }

    @Test func version24FrameFlagsAndExtendedHeader() {
        let unsynced: [UInt8] = [1, 0xFF, 0xFE, 0x41, 0x00, 0x42, 0x00]  // UTF-16LE "AB" with BOM
        var escaped: [UInt8] = []
        for byte in unsynced {
            escaped.append(byte)
            if byte == 0xFF { escaped.append(0) }
        }
        let body = syncsafe(6) + [1, 0]
            + frame24("TIT2", syncsafe(unsynced.count) + escaped, format: 0x03)  // length indicator + unsync
            + frame24("TPE1", [9] + text("Grp"), format: 0x40)
            + frame24("TALB", [1, 2, 3], format: 0x08)  // compressed: skipped
            + frame24("TDRC", text("2011-02-03T04:05"))
            + frame24("TPE2", [3] + Array("\0Second".utf8))  // an empty first value
            + frame24("TCON", text("Synthpop"))
        let tags = ID3v2Parser.parse(tag(major: 4, flags: 0x40, body)[...])
        #expect(tags == TrackTags(title: "AB", artist: "Grp", albumArtist: "Second", genre: "Synthpop", year: 2011,
                                  more: [.date: "2011-02-03T04:05"]))
    }

    @Test func version24WithPlainFrameSizes() {
        // Old iTunes wrote v2.4 sizes without syncsafe encoding: a 200-byte frame reads as 0xC8.
        let long = String(repeating: "x", count: 199)
        let body = Array("TIT2".utf8) + plain(200) + [0, 0] + text(long) + frame24("TPE1", text("After"))
        let tags = ID3v2Parser.parse(tag(major: 4, body)[...])
        #expect(tags.title == long)
        #expect(tags.artist == "After")
    }

    @Test func footerCountsInTheSize() {
        let body = frame24("TIT2", text("F"))
        var bytes = tag(major: 4, flags: 0x10, body)
        bytes += Array("3DI".utf8) + [4, 0, 0x10] + syncsafe(body.count)
        #expect(ID3v2Parser.tagSize(bytes[...]) == bytes.count)
        #expect(ID3v2Parser.parse(bytes[...]).title == "F")
    }

    @Test func invalidHeadersAreNoTag() {
        #expect(ID3v2Parser.tagSize(Array("ID3".utf8)[...]) == nil)
        #expect(ID3v2Parser.tagSize((Array("ID3".utf8) + [5, 0, 0, 0, 0, 0, 1])[...]) == nil)
        #expect(ID3v2Parser.tagSize((Array("ID3".utf8) + [3, 0, 0, 0x80, 0, 0, 1])[...]) == nil)
        #expect(ID3v2Parser.parse((Array("ID3".utf8) + [2, 0, 0x40, 0, 0, 0, 1, 0])[...]) == TrackTags())
    }

    @Test(arguments: [("(17)", "Rock"), ("17", "Rock"), ("(17)Hard", "Hard"), ("(255)", nil), ("(RX)", "Remix"),
                      ("(CR)", "Cover"), ("Shoegaze", "Shoegaze"), ("((Weird)", "(Weird)"), ("(147)", "Synthpop"),
                      ("(0)(1)", "Blues"), ("", nil)] as [(String, String?)])
    func genres(_ raw: String, _ expected: String?) {
        #expect(ID3Genre.resolve(raw) == expected)
    }

    @Test func textValuesInEveryEncoding() {
        #expect(ID3Text.firstValue(ofTextFrame: [0, 0xE9, 0x74, 0xE9][...]) == "été")
        #expect(ID3Text.firstValue(ofTextFrame: [1, 0xFE, 0xFF, 0, 0x41][...]) == "A")
        #expect(ID3Text.firstValue(ofTextFrame: [2, 0, 0x42, 0, 0][...]) == "B")
        #expect(ID3Text.firstValue(ofTextFrame: [3, 0xC3, 0xA9][...]) == "é")
        #expect(ID3Text.firstValue(ofTextFrame: [1, 0xFF][...]) == nil)
        #expect(ID3Text.firstValue(ofTextFrame: [][...]) == nil)
    }

    @Test func vbriHeaderGivesFrameCount() {
        var frame: [UInt8] = [0xFF, 0xFB, 0x90, 0x64] + [UInt8](repeating: 0, count: 32)
        frame += Array("VBRI".utf8) + [0, 1, 0x04, 0x40, 0, 75] + plain(50_000) + plain(100)
        frame += [UInt8](repeating: 0, count: 417 - frame.count)
        let header = MPEGFrameHeader(frame[...])
        #expect(header?.length == 417)
        let info = header.flatMap { MPEGLengthHeader(frame: frame[...], header: $0) }
        #expect(info?.frames == 100)
        #expect(info?.samples(samplesPerFrame: 1152, audioBytes: 50_000) == 115_200)
    }

    @Test func tagValues() {
        #expect(TagValue.leadingNumber("3/12") == 3)
        #expect(TagValue.leadingNumber(" 07") == 7)
        #expect(TagValue.leadingNumber("0") == nil)
        #expect(TagValue.leadingNumber("99999999999999999999") == nil)
        #expect(TagValue.leadingNumber("A1") == nil)
        #expect(TagValue.year("2021-03-04") == 2021)
        #expect(TagValue.year("21") == nil)
        #expect(TagValue.year("20210") == nil)
    }
}

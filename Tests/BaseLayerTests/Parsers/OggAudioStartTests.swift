import Parsers
import Testing

/// Where an Ogg stream's audio begins: past its header pages however large, read page head by
/// page head; nil where the pages do not say.
@Suite struct OggAudioStartTests {
    private static func offset(_ bytes: [UInt8]) -> Int64? {
        OggAudioStart.offset { offset, count in
            guard offset < bytes.count else { return [] }
            return Array(bytes[Int(offset)..<min(bytes.count, Int(offset) + count)])
        }
    }

    private static let head = Array("OpusHead".utf8) + [1, 2, 0x38, 0x01, 0x80, 0xBB, 0, 0, 0, 0, 0]
    /// An `OpusTags` packet of 40 KB, as a cover makes it (its page has 157 lacing values).
    private static let tags = Array("OpusTags".utf8) + [UInt8](repeating: 0x41, count: 40_000)

    @Test("the first page with a positive granule position, after headers of any size")
    func afterHeaders() {
        let audio: [UInt8] = [0xFC, 1, 2, 3]
        let stream = OggTestStream.pages([Self.head, Self.tags, audio], serial: 9, lastGranule: 960)
        let headers = OggTestStream.pages([Self.head, Self.tags], serial: 9, lastGranule: 0)
        #expect(Self.offset(stream) == Int64(headers.count))
        #expect(Self.offset(stream) == Int64(stream.count - (27 + 1 + audio.count)))
    }

    @Test("no answer: not Ogg, cut inside the headers, or headers with no audio after them")
    func noAnswer() {
        let stream = OggTestStream.pages([Self.head, Self.tags, [0xFC, 1]], serial: 9, lastGranule: 960)
        #expect(Self.offset(Array("RIFF".utf8) + [UInt8](repeating: 0, count: 100)) == nil)
        #expect(Self.offset(Array(stream.prefix(20))) == nil)
        #expect(Self.offset(OggTestStream.pages([Self.head, Self.tags], serial: 9, lastGranule: 0)) == nil)
        #expect(Self.offset([]) == nil)
    }
}

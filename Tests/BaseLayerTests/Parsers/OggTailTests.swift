import Decoding
import Foundation
import FuzzTargets
import Parsers
import Testing
import TestSupport

/// A whole Ogg file ends with a valid page that has the end-of-stream flag; a last page whose
/// checksum fails is damaged, and is not taken as that end.
@Suite struct OggTailTests {
    private func endsWithEndOfStream(_ bytes: [UInt8]) throws -> Bool {
        try OggTail.endsWithEndOfStream(MemoryByteSource(bytes))
    }

    @Test("built pages: the flag counts on a last page whose checksum holds, and only then")
    func builtPages() throws {
        let packets = [Array("OpusHead".utf8) + [1, 2, 0x38, 0x01, 0x80, 0xBB, 0, 0, 0, 0, 0], [0xFC, 1, 2, 3], [0xFC, 4, 5, 6]]
        let whole = OggTestStream.pages(packets, serial: 3, lastGranule: 960, endOfStream: true)
        #expect(try endsWithEndOfStream(whole))
        #expect(try !endsWithEndOfStream(OggTestStream.pages(packets, serial: 3, lastGranule: 960)))
        // One byte of the last packet changed: the page's layout is intact, its checksum is not.
        var damaged = whole
        damaged[damaged.count - 1] ^= 0x01
        #expect(try !endsWithEndOfStream(damaged))
        // The checksum field itself changed.
        var wrongSum = whole
        let lastPage = whole.count - (27 + 1 + 4)
        wrongSum[lastPage + 22] ^= 0x80
        #expect(try !endsWithEndOfStream(wrongSum))
        // Cut inside the last page.
        #expect(try !endsWithEndOfStream(Array(whole.dropLast(2))))
    }

    @Test("an opusenc file ends with end-of-stream; with its last page damaged it does not, and decoding it says so")
    func realFile() async throws {
        let bytes = try [UInt8](Data(contentsOf: try await Fixtures.shared.url(.opus)))
        #expect(try endsWithEndOfStream(bytes))
        var damaged = bytes
        damaged[damaged.count - 1] ^= 0x01
        #expect(try !endsWithEndOfStream(damaged))
        let decoder = try DecoderActor.open(MemoryByteSource(damaged))
        let error = #expect(throws: DecoderError.self) {
            while try !decoder.read(maxFrames: 8192).isEmpty {}
        }
        if case .truncated? = error {} else { Issue.record("decoding ended with \(String(describing: error)), not as truncated") }
    }
}

import Parsers
import Testing

/// The one check for where MPEG audio starts, as each of its callers asks it: the format sniffer
/// (three frames, or a whole file's fewer) and the tag reader (two, or one its window ends after).
@Suite struct MPEGFrameRunTests {
    /// MPEG-1 layer III, 128 kbit/s, 44.1 kHz, no padding: 417 bytes.
    static let frame: [UInt8] = [0xFF, 0xFB, 0x90, 0x64] + [UInt8](repeating: 0x55, count: 413)
    /// The same at 48 kHz (384 bytes): not the next frame of a 44.1 kHz stream.
    static let otherRateFrame: [UInt8] = [0xFF, 0xFB, 0x94, 0x64] + [UInt8](repeating: 0x55, count: 380)
    static let junk = [UInt8](repeating: 0x20, count: 100)

    private func sniffer(_ bytes: [UInt8], fileLength: Int64?) -> Int? {
        MPEGFrameRun.first(in: bytes[...], frames: 3, windowEnd: .countsIfFileEnds(fileLength: fileLength))?.offset
    }

    private func tagReader(_ bytes: ArraySlice<UInt8>) -> Int? {
        MPEGFrameRun.first(in: bytes, frames: 2, windowEnd: .counts)?.offset
    }

    @Test("the sniffer's check: three frames back to back, after junk and a stray header")
    func threeFrames() {
        let frame = Self.frame, junk = Self.junk
        #expect(sniffer(junk + frame + frame + frame, fileLength: nil) == 100)
        #expect(sniffer(frame + junk + frame + frame + frame + junk, fileLength: nil) == 517)
        #expect(sniffer(frame + frame + junk + junk, fileLength: nil) == nil)
        #expect(sniffer(frame + Self.otherRateFrame + frame + frame + frame, fileLength: nil) == 801)  // a rate change breaks a run
        let run = MPEGFrameRun.first(in: (junk + frame + frame + frame)[...], frames: 3, windowEnd: .countsIfFileEnds(fileLength: nil))
        #expect(run?.header == MPEGFrameHeader(frame[...]))
    }

    @Test("the sniffer's check: fewer frames count only if they are the whole file")
    func shortFile() {
        let two = Self.frame + Self.frame
        #expect(sniffer(two, fileLength: Int64(two.count)) == 0)
        #expect(sniffer(two, fileLength: Int64(two.count) + 500) == nil)  // the window ends, the file goes on
        #expect(sniffer(two, fileLength: nil) == nil)
        #expect(sniffer(Self.junk + two, fileLength: Int64(two.count) + 100) == 100)
    }

    @Test("the tag reader's check: two frames, or one that the window ends after")
    func twoFrames() {
        let frame = Self.frame, junk = Self.junk
        #expect(tagReader((junk + frame + frame)[...]) == 100)
        #expect(tagReader((frame + junk + frame + frame)[...]) == 517)  // a lone header followed by junk
        #expect(tagReader((frame + Self.otherRateFrame + junk)[...]) == nil)
        #expect(tagReader((junk + frame + [0xFF, 0xFB])[...]) == 100)  // the window ends inside the next header
        #expect(tagReader((junk + frame + frame)[...].dropFirst(50)) == 50)  // offsets count from the window's start
    }
}

import Parsers
import Testing

/// Where an MP3's frames lie without reading them all: the checks that decide whether a seek may
/// skip the bytes before its target (the seeks themselves are in `MP3SeekTests`).
@Suite struct MPEGStreamLayoutTests {
    /// MPEG-1 layer III, 128 kbit/s, 44.1 kHz, no padding: 417 bytes.
    static let frame: [UInt8] = [0xFF, 0xFB, 0x90, 0x64] + [UInt8](repeating: 0x55, count: 413)
    /// The same at 160 kbit/s (522 bytes).
    static let fasterFrame: [UInt8] = [0xFF, 0xFB, 0xA0, 0x64] + [UInt8](repeating: 0x55, count: 518)

    /// LAME's table for a steady bitrate: entry i is floor(2.56 · i).
    static let steadyTable = (0..<100).map { UInt8($0 * 256 / 100) }

    @Test("a table is used only with 100 entries that never go back")
    func tableChecks() {
        #expect(XingSeekTable(Self.steadyTable) != nil)
        #expect(XingSeekTable(Array(Self.steadyTable.prefix(99))) == nil)
        var backwards = Self.steadyTable
        backwards[60] = 250
        #expect(XingSeekTable(backwards) == nil)
        #expect(XingSeekTable([UInt8](repeating: 0, count: 100)) != nil)  // flat: allowed, if useless
    }

    @Test("a table's answer stays within what its entries allow, and never goes back")
    func tableBounds() throws {
        var lumpy = Self.steadyTable
        for index in 30..<40 { lumpy[index] = 90 }  // a stretch of silence after a loud one
        let table = try #require(XingSeekTable(lumpy))
        var last = 0.0
        for step in 0...1000 {
            let time = Double(step) / 1000
            let answer = table.byteFraction(atTime: time)
            let index = min(Int(time * 100), 99)
            #expect(answer >= Double(lumpy[index]) / 256 && answer <= Double(index < 99 ? Int(lumpy[index + 1]) + 1 : 256) / 256,
                    "at \(time): \(answer)")
            #expect(answer >= last - 1e-9, "at \(time): \(answer) after \(last)")
            last = answer
        }
    }

    /// Rounded-down entries make a staircase; reading it as it is puts a steady file's places
    /// up to 1/256 of it early. Fitted, they are within a quarter of that.
    @Test("a steady bitrate's table gives places within 1/1024 of the truth")
    func steadyTable() throws {
        let table = try #require(XingSeekTable(Self.steadyTable))
        for step in 0..<990 {
            let time = Double(step) / 1000
            #expect(abs(table.byteFraction(atTime: time) - time) <= 1.0 / 1024, "at \(time)")
        }
    }

    @Test("frames of one bitrate and no header: constant, found where the arithmetic puts them")
    func steadyWithoutHeader() throws {
        let bytes = [UInt8](repeating: 0x20, count: 50) + Array([[UInt8]](repeating: Self.frame, count: 12).joined())
        let layout = try #require(MPEGStreamLayout(window: bytes[...], windowStart: 1000, fileLength: 100_000))
        #expect(layout.firstFrame == 1050)
        #expect(layout.seeking == .constantBitrate(bitrate: 128_000, declared: false))
        #expect(layout.constantBitrateOffset(ofFrame: 5, bitrate: 128_000) == 1050 + 5 * 417 + 4)  // 417.96 bytes a frame
        let found = layout.frameStart(near: 1050 + 5 * 417 + 4, in: bytes[...], windowStart: 1000, bitrate: 128_000)
        #expect(found == Int64(1050 + 5 * 417))
        #expect(layout.frameStart(near: 1050 + 5 * 417, in: bytes[...], windowStart: 1000, bitrate: 160_000) == nil)
    }

    @Test("a bitrate that changes within the first frames: no arithmetic, the scan")
    func changingBitrate() throws {
        let bytes = Array([[UInt8]](repeating: Self.frame, count: 6).joined()) + Self.fasterFrame
            + Array([[UInt8]](repeating: Self.frame, count: 6).joined())
        let layout = try #require(MPEGStreamLayout(window: bytes[...], windowStart: 0, fileLength: 100_000))
        #expect(layout.seeking == .scan)
    }
}

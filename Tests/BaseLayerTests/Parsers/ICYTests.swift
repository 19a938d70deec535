import Parsers
import Testing

/// ICY metadata as SHOUTcast and Icecast interleave it, split across reads every way it can be.
struct ICYTests {
    /// A metadata block as a server sends it: the length byte (×16), the text, NUL padding.
    private func block(_ text: [UInt8]) -> [UInt8] {
        let padded = text + [UInt8](repeating: 0, count: (16 - text.count % 16) % 16)
        return [UInt8(padded.count / 16)] + padded
    }

    /// A stream of `interval`-byte audio runs (each byte its run's number) with these blocks after
    /// them; an empty block is a zero length byte.
    private func stream(interval: Int, blocks: [[UInt8]]) -> (bytes: [UInt8], audio: [UInt8]) {
        var bytes: [UInt8] = [], audio: [UInt8] = []
        for (index, text) in blocks.enumerated() {
            let run = [UInt8](repeating: UInt8(index % 251), count: interval)
            bytes += run
            audio += run
            bytes += text.isEmpty ? [0] : block(text)
        }
        let tail = [UInt8](repeating: 0xAA, count: interval / 2)
        return (bytes + tail, audio + tail)
    }

    @Test("blocks and their length bytes straddling reads of every size: the audio intact, each title at its audio offset",
          arguments: [1, 2, 3, 7, 16, 17, 100, 1000, 100_000])
    func straddlingReads(readSize: Int) {
        let texts: [[UInt8]] = [Array("StreamTitle='A - One';".utf8), [], Array("StreamTitle='B - Two';StreamUrl='http://x';".utf8), []]
        let (bytes, audio) = stream(interval: 40, blocks: texts)
        var demuxer = ICYDemuxer(interval: 40)!
        var out: [UInt8] = []
        var blocks: [ICYDemuxer.Block] = []
        var start = 0
        while start < bytes.count {
            let end = min(start + readSize, bytes.count)
            bytes[start..<end].withUnsafeBytes { blocks += demuxer.feed($0, audio: &out) }
            start = end
        }
        #expect(out == audio)
        #expect(blocks.map(\.audioOffset) == [40, 120])
        #expect(blocks.map(\.metadata.streamTitle) == ["A - One", "B - Two"])
        #expect(blocks[1].metadata.streamURL == "http://x")
    }

    @Test("an interval no server uses is refused: 0, negative, past 1 MiB")
    func absurdIntervals() {
        #expect(ICYDemuxer(interval: 0) == nil)
        #expect(ICYDemuxer(interval: -5) == nil)
        #expect(ICYDemuxer(interval: (1 << 20) + 1) == nil)
        #expect(ICYDemuxer(interval: 16000) != nil)
    }

    @Test("a block whose length runs past the end of the stream is never reported")
    func blockCutShort() {
        var demuxer = ICYDemuxer(interval: 4)!
        var audio: [UInt8] = []
        let bytes: [UInt8] = [1, 2, 3, 4, 3] + Array("StreamTitle='x".utf8)
        let blocks = bytes.withUnsafeBytes { demuxer.feed($0, audio: &audio) }
        #expect(audio == [1, 2, 3, 4])
        #expect(blocks.isEmpty)
    }

    @Test("titles: quotes inside, no artist, blank, Latin-1, cut short, other keys first")
    func titles() {
        func song(_ text: [UInt8]) -> (String?, String)? {
            ICYMetadata(text).song.map { ($0.artist, $0.title) }
        }
        #expect(song(Array("StreamTitle='Guns N' Roses - Sweet Child O' Mine';".utf8))! == ("Guns N' Roses", "Sweet Child O' Mine"))
        #expect(song(Array("StreamTitle='Station jingle';".utf8))! == (nil, "Station jingle"))
        #expect(song(Array("StreamTitle='A - B - C';".utf8))! == ("A", "B - C"))
        #expect(song(Array("StreamTitle='';".utf8)) == nil)
        #expect(song(Array("StreamTitle=' - ';".utf8))! == (nil, "-"))
        // ISO-8859-1: "Beyoncé - Déjà Vu", as older servers send it.
        #expect(song(Array("StreamTitle='Beyonc".utf8) + [0xE9] + Array(" - D".utf8) + [0xE9, 0x6A, 0xE0] + Array(" Vu';".utf8))!
                == ("Beyoncé", "Déjà Vu"))
        #expect(song(Array("StreamTitle='Björk - Jóga';".utf8))! == ("Björk", "Jóga"))
        #expect(song(Array("StreamTitle='Cut - Sho".utf8))! == ("Cut", "Sho"))
        #expect(song(Array("StreamUrl='http://a';StreamTitle='X - Y';".utf8))! == ("X", "Y"))
        #expect(ICYMetadata(Array("StreamUrl='http://a';".utf8)).streamTitle == nil)
        #expect(song([0xFF, 0xFE, 0x00, 0x41]) == nil)
    }
}

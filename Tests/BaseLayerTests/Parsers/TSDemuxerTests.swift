import ComponentTestSupport
import Foundation
import Parsers
import Testing
import TestSupport

/// The transport stream demuxer against ffmpeg: what it takes out of a stream ffmpeg muxed must
/// be what ffmpeg itself takes out (`-c:a copy`), byte for byte, however the stream is cut into
/// reads and whatever damage is done to it.
struct TSDemuxerTests {
    private static let ffmpeg = ["-nostdin", "-loglevel", "error", "-y"]

    /// A 3 s tone muxed into a transport stream with `codec`, and the audio ffmpeg copies out of it
    /// into `format` (raw ADTS frames, or MP3 frames without the muxer's own tag and Xing frame).
    private func stream(_ codec: String, format: String, fixtures: ParserFixtures) throws -> (ts: [UInt8], audio: [UInt8]) {
        try fixtures.run("ffmpeg", Self.ffmpeg + ["-f", "lavfi", "-i", "sine=frequency=440:duration=3", "-c:a", codec,
                                                  "-fflags", "+bitexact", "-f", "mpegts", "x.ts"])
        try fixtures.run("ffmpeg", Self.ffmpeg + ["-i", "x.ts", "-c:a", "copy", "-write_xing", "0", "-id3v2_version", "0",
                                                  "-f", format, "x.out"])
        return (try fixtures.bytes("x.ts"), try fixtures.bytes("x.out"))
    }

    /// The first audio packet's PTS as ffprobe reads it (the stream's time base is 1/90000).
    private func firstPTS(_ name: String, fixtures: ParserFixtures) throws -> Int64? {
        let text = try fixtures.run("ffprobe", ["-v", "error", "-select_streams", "a:0", "-show_entries", "packet=pts",
                                                "-of", "csv=p=0", name])
        return text.split(separator: "\n").first.flatMap { Int64($0.filter(\.isNumber)) }
    }

    /// Everything `bytes` give, fed `read` bytes at a time, then finished.
    private func demux(_ bytes: [UInt8], read: Int = 65536, demuxer: inout TSDemuxer) -> [TSPayload] {
        var payloads: [TSPayload] = []
        var start = 0
        while start < bytes.count {
            let end = min(start + read, bytes.count)
            payloads += demuxer.feed(bytes[start..<end])
            start = end
        }
        return payloads + demuxer.finish()
    }

    private func demux(_ bytes: [UInt8], read: Int = 65536) -> (payloads: [TSPayload], damage: Int) {
        var demuxer = TSDemuxer()
        let payloads = demux(bytes, read: read, demuxer: &demuxer)
        return (payloads, demuxer.damage)
    }

    @Test("AAC: the payloads joined are ffmpeg's ADTS copy, the first PTS is ffprobe's, the PMT is read")
    func aacMatchesFFmpeg() throws {
        let fixtures = try ParserFixtures()
        let (ts, adts) = try stream("aac", format: "adts", fixtures: fixtures)
        var demuxer = TSDemuxer()
        let payloads = demux(ts, demuxer: &demuxer)
        #expect(payloads.count > 8)
        #expect(payloads.allSatisfy { $0.kind == .adtsAAC && $0.pid == 0x100 })
        #expect(payloads.flatMap(\.bytes) == adts)
        #expect(payloads.first?.pts == (try firstPTS("x.ts", fixtures: fixtures)))
        #expect(demuxer.streams == [TSStream(pid: 0x100, streamType: 0x0F, kind: .adtsAAC)])
        #expect(demuxer.damage == 0)
        // The time stamps rise with the audio (1024 samples at 44.1 kHz per frame).
        let times = payloads.compactMap(\.pts)
        #expect(times.count == payloads.count && zip(times, times.dropFirst()).allSatisfy { $0 < $1 })
    }

    @Test("MP3: the payloads joined are ffmpeg's MP3 copy, the first PTS is ffprobe's")
    func mp3MatchesFFmpeg() throws {
        let fixtures = try ParserFixtures()
        let (ts, mp3) = try stream("libmp3lame", format: "mp3", fixtures: fixtures)
        var demuxer = TSDemuxer()
        let payloads = demux(ts, demuxer: &demuxer)
        #expect(payloads.count > 8)
        #expect(payloads.allSatisfy { $0.kind == .mpegAudio })
        #expect(payloads.flatMap(\.bytes) == mp3)
        #expect(payloads.first?.pts == (try firstPTS("x.ts", fixtures: fixtures)))
        #expect(demuxer.streams.map(\.kind) == [.mpegAudio])
        #expect(demuxer.damage == 0)
    }

    @Test("two audio streams: the first the PMT lists is played, both are listed")
    func firstAudioStream() throws {
        let fixtures = try ParserFixtures()
        try fixtures.run("ffmpeg", Self.ffmpeg + ["-f", "lavfi", "-i", "sine=frequency=440:duration=2", "-map", "0:a", "-map", "0:a",
                                                  "-c:a:0", "libmp3lame", "-c:a:1", "aac", "-f", "mpegts", "two.ts"])
        try fixtures.run("ffmpeg", Self.ffmpeg + ["-i", "two.ts", "-map", "0:a:0", "-c", "copy", "-write_xing", "0", "-id3v2_version", "0",
                                                  "-f", "mp3", "first.mp3"])
        var demuxer = TSDemuxer()
        let payloads = demux(try fixtures.bytes("two.ts"), demuxer: &demuxer)
        #expect(demuxer.streams.map(\.kind) == [.mpegAudio, .adtsAAC])
        #expect(payloads.allSatisfy { $0.pid == demuxer.streams.first?.pid })
        #expect(payloads.flatMap(\.bytes) == (try fixtures.bytes("first.mp3")))
    }

    @Test("reads of 1, 7, 188 and 1000 bytes give what one read gives")
    func readSizes() throws {
        let fixtures = try ParserFixtures()
        let (ts, _) = try stream("aac", format: "adts", fixtures: fixtures)
        let whole = demux(ts)
        #expect(!whole.payloads.isEmpty)
        for read in [1, 7, 188, 1000] {
            let cut = demux(ts, read: read)
            #expect(cut.payloads == whole.payloads, "reads of \(read)")
            #expect(cut.damage == 0)
        }
    }

    @Test("garbage between packets: sync is found again, nothing is lost, the damage is counted")
    func garbageBetweenPackets() throws {
        let fixtures = try ParserFixtures()
        let (ts, adts) = try stream("aac", format: "adts", fixtures: fixtures)
        var damaged: [UInt8] = []
        for packet in stride(from: 0, to: ts.count, by: 188) {
            if packet / 188 % 37 == 5 {
                // A sync byte in the garbage, too.
                damaged += Fixtures.noise(count: 50 + packet % 300, seed: UInt64(packet)) + [0x47, 1, 2]
            }
            damaged += ts[packet..<min(packet + 188, ts.count)]
        }
        for read in [7, 1000] {
            let (payloads, damage) = demux([0x12, 0x47, 0x00] + damaged, read: read)
            #expect(payloads.flatMap(\.bytes) == adts)
            #expect(damage > 0)
        }
    }

    @Test("a packet lost: the PES it was part of is dropped, every other one is handed out")
    func continuityGap() throws {
        let fixtures = try ParserFixtures()
        let (ts, _) = try stream("aac", format: "adts", fixtures: fixtures)
        let whole = demux(ts).payloads
        // The third audio packet that starts no PES: its PES goes, the others stay.
        let packets = stride(from: 0, to: ts.count, by: 188).map { Array(ts[$0..<($0 + 188)]) }
        let continuing = packets.indices.filter { index in
            let packet = packets[index]
            return packet[1] & 0x40 == 0 && Int(packet[1] & 0x1F) << 8 | Int(packet[2]) == 0x100
        }
        let lost = continuing[2]
        let (payloads, damage) = demux(Array(packets[..<lost].joined()) + Array(packets[(lost + 1)...].joined()))
        #expect(damage == 1)
        #expect(payloads.count == whole.count - 1)
        #expect(payloads.allSatisfy { whole.contains($0) })
    }

    @Test("a stream cut short: finish() hands out the PES packets that are whole and counts the rest")
    func truncated() throws {
        let fixtures = try ParserFixtures()
        let (ts, _) = try stream("aac", format: "adts", fixtures: fixtures)
        let whole = demux(ts).payloads
        let (payloads, damage) = demux(Array(ts.prefix(ts.count / 2 + 100)))
        #expect(payloads.count > 3 && payloads.count < whole.count)
        #expect(payloads == Array(whole.prefix(payloads.count)))
        #expect(damage > 0)
    }

    @Test("HLS segments fed one after another, each finished: the audio of the whole stream")
    func hlsSegments() throws {
        let fixtures = try ParserFixtures()
        try fixtures.run("ffmpeg", Self.ffmpeg + ["-f", "lavfi", "-i", "sine=frequency=440:duration=4", "-c:a", "aac",
                                                  "-fflags", "+bitexact", "-f", "hls", "-hls_time", "1", "-hls_playlist_type", "vod",
                                                  "-hls_segment_filename", "seg%d.ts", "list.m3u8"])
        try fixtures.run("ffmpeg", Self.ffmpeg + ["-allowed_extensions", "ALL", "-i", "list.m3u8", "-c:a", "copy", "-f", "adts", "all.aac"])
        let names = try fixtures.run("sh", ["-c", "grep -v '^#' list.m3u8"]).split(separator: "\n").map(String.init)
        #expect(names.count >= 4)
        var demuxer = TSDemuxer()
        var audio: [UInt8] = []
        for name in names { audio += demux(try fixtures.bytes(name), read: 5000, demuxer: &demuxer).flatMap(\.bytes) }
        #expect(audio == (try fixtures.bytes("all.aac")))
        #expect(demuxer.damage == 0)
    }

    @Test("an ID3 timed-metadata stream (0x15) is handed out whole with its PTS; AC-3 is listed, not played")
    func id3Metadata() throws {
        let tag = Self.id3Tag(title: "Song", artist: "Band", padding: 300)  // over one packet
        let entries = [TSTestStream.Entry(type: 0x81, pid: 0x100), TSTestStream.Entry(type: 0x0F, pid: 0x101),
                       TSTestStream.Entry(type: 0x15, pid: 0x102, descriptors: TSTestStream.id3Descriptors),
                       TSTestStream.Entry(type: 0x15, pid: 0x103)]
        let frame: [UInt8] = [0xFF, 0xF1, 0x50, 0x80, 0x02, 0x1F, 0xFC] + [UInt8](repeating: 0x21, count: 9)
        let stream = TSTestStream.tables(entries)
            + TSTestStream.packets(pid: 0x102, payload: TSTestStream.pes(streamID: 0xBD, pts: 8_589_934_000, payload: tag), continuity: 3)
            + TSTestStream.packets(pid: 0x101, payload: TSTestStream.pes(streamID: 0xC0, pts: 900, payload: frame), continuity: 0)
            + TSTestStream.packets(pid: 0x103, payload: TSTestStream.pes(streamID: 0xBD, pts: 5, payload: tag), continuity: 0)
            + TSTestStream.packets(pid: 0x102, payload: TSTestStream.pes(streamID: 0xBD, pts: 1000, payload: tag, declaresLength: false),
                                   continuity: 5)
        for read in [1, 188, 10000] {
            var demuxer = TSDemuxer()
            let payloads = demux(stream, read: read, demuxer: &demuxer)
            #expect(payloads == [TSPayload(kind: .id3Metadata, pid: 0x102, pts: 8_589_934_000, bytes: tag),
                                 TSPayload(kind: .adtsAAC, pid: 0x101, pts: 900, bytes: frame),
                                 TSPayload(kind: .id3Metadata, pid: 0x102, pts: 1000, bytes: tag)], "reads of \(read)")
            #expect(demuxer.streams.map(\.kind) == [.other(streamType: 0x81), .adtsAAC, .id3Metadata, .other(streamType: 0x15)])
            #expect(demuxer.damage == 0)
            let read = payloads.first.flatMap { HLSID3Tag.read($0.bytes[...]) }
            #expect(read?.tags.title == "Song" && read?.tags.artist == "Band")
        }
    }

    @Test("a PMT whose CRC is wrong is not believed")
    func badCRC() {
        var tables = TSTestStream.tables([TSTestStream.Entry(type: 0x0F, pid: 0x101)])
        tables[2 * 188 - 9] ^= 0x01  // the PMT entry's stream_type (before its 5 bytes and the CRC): 0x0F becomes 0x0E
        var demuxer = TSDemuxer()
        _ = demux(tables + TSTestStream.packets(pid: 0x101, payload: TSTestStream.pes(streamID: 0xC0, pts: 0, payload: [1, 2]), continuity: 0),
                  demuxer: &demuxer)
        #expect(demuxer.streams.isEmpty)
    }

    @Test("a PMT over two packets is read whole")
    func pmtOverTwoPackets() {
        let descriptor: [UInt8] = [0x0A, 40] + [UInt8](repeating: 0x65, count: 40)  // ISO 639 language, padded out
        let entries = (0..<5).map { TSTestStream.Entry(type: 0x1B, pid: 0x200 + $0, descriptors: descriptor) }
            + [TSTestStream.Entry(type: 0x03, pid: 0x300)]
        let tables = TSTestStream.tables(entries)
        #expect(tables.count == 3 * 188)
        var demuxer = TSDemuxer()
        let payloads = demux(tables + TSTestStream.packets(pid: 0x300, payload: TSTestStream.pes(streamID: 0xC0, pts: 7, payload: [9, 9]),
                                                           continuity: 0), read: 100, demuxer: &demuxer)
        #expect(demuxer.streams.map(\.pid) == [0x200, 0x201, 0x202, 0x203, 0x204, 0x300])
        #expect(payloads == [TSPayload(kind: .mpegAudio, pid: 0x300, pts: 7, bytes: [9, 9])])
    }

    @Test("a PES past 1 MiB is dropped and counted; the next one is handed out")
    func oversizedPES() {
        let huge = TSTestStream.pes(streamID: 0xC0, pts: 1, payload: [UInt8](repeating: 0x11, count: 1_100_000), declaresLength: false)
        let next = TSTestStream.pes(streamID: 0xC0, pts: 2, payload: [1, 2, 3])
        let hugePackets = TSTestStream.packets(pid: 0x101, payload: huge, continuity: 0)
        let stream = TSTestStream.tables([TSTestStream.Entry(type: 0x0F, pid: 0x101)]) + hugePackets
            + TSTestStream.packets(pid: 0x101, payload: next, continuity: hugePackets.count / 188)
        let (payloads, damage) = demux(stream)
        #expect(payloads == [TSPayload(kind: .adtsAAC, pid: 0x101, pts: 2, bytes: [1, 2, 3])])
        #expect(damage == 1)
    }

    /// An ID3v2.4 tag with TIT2 and TPE1 in UTF-8.
    static func id3Tag(title: String, artist: String, padding: Int = 0) -> [UInt8] {
        func frame(_ id: String, _ text: String) -> [UInt8] {
            let data = [3] + Array(text.utf8)
            return Array(id.utf8) + [0, 0, 0, UInt8(data.count), 0, 0] + data
        }
        let body = frame("TIT2", title) + frame("TPE1", artist) + [UInt8](repeating: 0, count: padding)
        return Array("ID3".utf8) + [4, 0, 0, 0, 0, UInt8(body.count >> 7), UInt8(body.count & 0x7F)] + body
    }
}

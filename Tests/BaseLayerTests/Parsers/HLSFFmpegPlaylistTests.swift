import ComponentTestSupport
import Foundation
import Parsers
import Testing

/// Playlists ffmpeg's HLS muxer writes — VOD, fMP4 with EXT-X-MAP, encrypted, one file with
/// byte ranges, a master over two bit rates — read back and checked against the files it wrote.
struct HLSFFmpegPlaylistTests {
    private static let tone = ["-nostdin", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=440:duration=3"]

    /// A VOD of the tone in AAC, in segments of about a second, with more of ffmpeg's options.
    private func vod(_ options: [String], playlist: String, _ fixtures: ParserFixtures) throws {
        try fixtures.run("ffmpeg", Self.tone + ["-c:a", "aac", "-f", "hls", "-hls_time", "1", "-hls_playlist_type", "vod"]
                                             + options + [playlist])
    }

    /// The playlist ffmpeg wrote (or `bytes` in its place), read with its file URL as the base.
    private func read(_ name: String, _ fixtures: ParserFixtures, bytes: [UInt8]? = nil) throws -> HLSPlaylist {
        try HLSPlaylist.parse(try bytes ?? fixtures.bytes(name), base: URL(fileURLWithPath: fixtures.path(name)))
    }

    private func media(_ name: String, _ fixtures: ParserFixtures, bytes: [UInt8]? = nil) throws -> HLSMediaPlaylist {
        guard case .media(let playlist) = try read(name, fixtures, bytes: bytes) else {
            throw ParserFixtureError(message: "\(name): not a media playlist")
        }
        return playlist
    }

    @Test("VOD: every segment ffmpeg wrote, in order, their durations adding up to the tone's")
    func vod() throws {
        let fixtures = try ParserFixtures()
        try vod(["-hls_segment_filename", "s%d.ts"], playlist: "vod.m3u8", fixtures)
        let playlist = try media("vod.m3u8", fixtures)
        #expect(playlist.type == .vod && playlist.ended && playlist.targetDuration == 1 && playlist.mediaSequence == 0)
        #expect(playlist.segments.map(\.uri) == (0..<playlist.segments.count).map { URL(fileURLWithPath: fixtures.path("s\($0).ts")) })
        #expect(playlist.segments.map(\.sequence) == Array(0..<playlist.segments.count))
        #expect(playlist.segments.count >= 3)
        let listed: Double = playlist.segments.map(\.duration).reduce(0, +)
        #expect(abs(listed - 3) < 0.05)
        #expect(playlist.segments.allSatisfy { FileManager.default.fileExists(atPath: $0.uri.path) })
    }

    @Test("fMP4 segments: EXT-X-MAP names the initialization section for every segment")
    func fragmentedMP4() throws {
        let fixtures = try ParserFixtures()
        try vod(["-hls_segment_type", "fmp4", "-hls_fmp4_init_filename", "init.mp4"], playlist: "f.m3u8", fixtures)
        let playlist = try media("f.m3u8", fixtures)
        let map = HLSMap(uri: URL(fileURLWithPath: fixtures.path("init.mp4")))
        #expect(playlist.segments.count >= 3 && playlist.segments.allSatisfy { $0.map == map })
        #expect(try fixtures.bytes("init.mp4").dropFirst(4).starts(with: Array("ftyp".utf8)))
    }

    @Test("AES-128: the key's URI and IV; the IV and key decrypt a segment into a transport stream")
    func encrypted() throws {
        let fixtures = try ParserFixtures()
        let key: [UInt8] = Array(0x30..<0x40)
        try fixtures.write("k.bin", key)
        try fixtures.write("keyinfo", Array("https://keys.example.com/k.bin\nk.bin\n".utf8))
        try vod(["-hls_key_info_file", "keyinfo", "-hls_segment_filename", "e%d.ts"], playlist: "e.m3u8", fixtures)
        let playlist = try media("e.m3u8", fixtures)
        let segment = try #require(playlist.segments.dropFirst().first)
        #expect(segment.key?.method == .aes128 && segment.key?.uri == URL(string: "https://keys.example.com/k.bin"))
        let iv = try #require(segment.iv())
        func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }
        try fixtures.run("openssl", ["aes-128-cbc", "-d", "-K", hex(key), "-iv", hex(iv), "-in", segment.uri.lastPathComponent, "-out", "plain.ts"])
        var demuxer = TSDemuxer()
        let payloads = demuxer.feed(try fixtures.bytes("plain.ts")[...]) + demuxer.finish()
        #expect(!payloads.isEmpty && payloads.allSatisfy { $0.kind == .adtsAAC } && demuxer.damage == 0)
    }

    @Test("one file: byte ranges that follow each other to the file's end")
    func singleFile() throws {
        let fixtures = try ParserFixtures()
        try vod(["-hls_flags", "single_file"], playlist: "single.m3u8", fixtures)
        let playlist = try media("single.m3u8", fixtures)
        let ranges = playlist.segments.compactMap(\.byteRange)
        #expect(ranges.count == playlist.segments.count && ranges.count >= 3)
        #expect(ranges.first?.lowerBound == 0)
        #expect(zip(ranges, ranges.dropFirst()).allSatisfy { $0.upperBound == $1.lowerBound })
        #expect(ranges.last?.upperBound == Int64(try fixtures.bytes("single.ts").count))
        // The same with the offsets left out (each range follows the one before).
        let text = String(decoding: try fixtures.bytes("single.m3u8"), as: UTF8.self)
            .split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.hasPrefix("#EXT-X-BYTERANGE:") && !$0.hasSuffix("@0") ? String($0.prefix { $0 != "@" }) : String($0) }
            .joined(separator: "\r\n")
        #expect(try media("single.m3u8", fixtures, bytes: Array(text.utf8)) == playlist)
    }

    @Test("a master playlist over two bit rates (-var_stream_map): the choice by bandwidth")
    func master() throws {
        let fixtures = try ParserFixtures()
        try fixtures.run("ffmpeg", Self.tone + ["-map", "0:a", "-map", "0:a", "-c:a", "aac", "-b:a:0", "64k", "-b:a:1", "128k",
                                                "-f", "hls", "-hls_time", "1", "-master_pl_name", "master.m3u8",
                                                "-var_stream_map", "a:0 a:1", "out_%v.m3u8"])
        guard case .master(let playlist) = try read("master.m3u8", fixtures) else { throw ParserFixtureError(message: "not a master playlist") }
        #expect(playlist.variants.map(\.uri) == [URL(fileURLWithPath: fixtures.path("out_0.m3u8")), URL(fileURLWithPath: fixtures.path("out_1.m3u8"))])
        #expect(playlist.variants.allSatisfy { $0.codecs == ["mp4a.40.2"] && $0.audioGroup == nil })
        let low = try #require(playlist.variants.first?.bandwidth), high = try #require(playlist.variants.last?.bandwidth)
        #expect(low < high)
        #expect(playlist.audioChoice(maxBandwidth: nil)?.variant.bandwidth == high)
        #expect(playlist.audioChoice(maxBandwidth: high - 1)?.variant.bandwidth == low)
        #expect(playlist.audioChoice(maxBandwidth: 1)?.variant.bandwidth == low)
        #expect(try media("out_1.m3u8", fixtures).segments.count >= 3)
    }
}

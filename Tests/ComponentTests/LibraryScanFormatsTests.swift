import Foundation
import Library
import Testing
import TestSupport

/// Scans over WebDAV (each real server: rclone, Apache mod_dav, nginx dav-ext, WsgiDAV) of the
/// formats whose tags may sit after the audio: MP4 with its `moov` at the end, WAV with its tag
/// chunks after `data` — each within the scan's budget.
extension LibraryScanTests {
    @Test("a scan over WebDAV fetches at most 70 KiB of a tagged moov-at-end M4A with a 2 MB cover and of a WAV tagged after its audio",
          arguments: WebDAVTestServer.Kind.allCases)
    func bytesPerM4AAndWAVTrack(kind: WebDAVTestServer.Kind) async throws {
        try await Rig.with(kind: kind) { rig in
            let variant = try #require(MP4DecoderTests.variants.first { $0.name == "aac-moov-at-end.m4a" })
            let (m4a, frames) = try await MP4DecoderTests.encode(variant)
            try await MP4TagTests.tag(m4a, coverBytes: 2 * 1024 * 1024)
            try rig.publish(try Data(contentsOf: m4a), at: "formats/song.m4a")
            let wav = try await PCMFileDecoderTests.write(try #require(PCMFileDecoderTests.variants.first { $0.name == "s24.wav" }))
            try rig.publish(PCMFileBadInputTests.taggedAfterTheAudio(try [UInt8](Data(contentsOf: wav))), at: "formats/take.wav")
            let report = try #require(await rig.scan().first)
            #expect(report.tracks == 2 && report.problems.isEmpty, "\(kind): \(report.problems)")
            for (name, title, seconds) in [("song.m4a", "The Title", Double(frames) / 44100), ("take.wav", "ID3 Title", 2.0)] {
                let sent = rig.proxy.log.filter { $0.method == "GET" && $0.path.hasSuffix(name) }.reduce(0) { $0 + $1.bodyBytes }
                #expect(sent > 0 && sent <= 70 * 1024, "\(kind) \(name): \(sent) bytes")
                print("scan of \(name) over \(kind): \(sent) bytes")
                let track = try #require(try await rig.library.track(at: rig.location(rig.url("formats/\(name)"))))
                #expect(track.title == title)
                #expect(track.duration == seconds, "\(name): \(track.duration ?? -1)")
            }
        }
    }
}

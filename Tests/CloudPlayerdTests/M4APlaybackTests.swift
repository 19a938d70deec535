import Foundation
import Testing
import TestSupport

/// An album of AAC tracks through `play --output wav:`: one recording cut in two, each part encoded
/// by ffmpeg (with its edit list), plays back with no gap and no overlap — the lengths encoded,
/// each track ffmpeg's decode of it — and `--start` lands on its frame.
@Suite struct M4APlaybackTests {
    /// The two parts of one 3.5 s noise-and-tone recording (`sox -R`), 2 s and 1.5 s, as AAC.
    private func album() async throws -> [URL] {
        let directory = try Fixtures.shared.scratchDirectory()
        let whole = directory.appendingPathComponent("whole.wav")
        try await ChildProcess.check("sox", RepeatableTool.arguments(for: "sox", ["-n", "-r", "44100", "-c", "2", "-b", "16", whole.path,
                                                                                 "synth", "3.5", "pinknoise", "sine", "300", "gain", "-n", "-1"]))
        var tracks: [URL] = []
        for (index, (start, length)) in [(0.0, 2.0), (2.0, 1.5)].enumerated() {
            let part = directory.appendingPathComponent("part\(index).wav")
            try await ChildProcess.check("sox", [whole.path, part.path, "trim", "\(start)", "\(length)"])
            let track = directory.appendingPathComponent("track\(index + 1).m4a")
            try await ChildProcess.check("ffmpeg", ["-nostdin", "-loglevel", "error", "-i", part.path, "-c:a", "aac", "-aac_pns", "0",
                                                    "-fflags", "+bitexact", track.path])
            tracks.append(track)
        }
        return tracks
    }

    @Test("two AAC tracks of one album join with no gap and no overlap, each exactly as encoded; --start 0.5 starts at frame 22050")
    func gaplessAlbum() async throws {
        let tracks = try await album()
        let output = try Fixtures.shared.scratchDirectory().appendingPathComponent("out.wav")
        let result = try await BuiltProducts.runCloudPlayerd(["play", "--quiet", "--output", "wav:\(output.path)", "--start", "0.5"]
                                                             + tracks.map(\.path))
        #expect(result.status == 0, "stderr: \(result.stderr)")
        // ffmpeg keeps each track's padding up to a whole frame: its decodes cut to the lengths encoded.
        let first = try await ReferenceDecoder.ffmpeg(tracks[0]).frames(from: 22050, to: 88200)
        let second = try await ReferenceDecoder.ffmpeg(tracks[1]).frames(from: 0, to: 66150)
        let played = try PCMAudio(wavFile: output)
        #expect(played.frameCount == 66150 + 66150, "1.5 s of the first track, then 1.5 s of the second")
        #expect(played == first + second)
    }
}

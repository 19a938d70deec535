import Foundation
import Testing
import TestSupport

/// An album of AAC tracks through `play --output wav:`: one recording cut in two, each part encoded
/// by ffmpeg (with its edit list), plays back with no gap and no overlap — the lengths encoded,
/// each track ffmpeg's decode of it — and `--start` lands on its frame.
@Suite struct M4APlaybackTests {
    /// The two parts of one 3.5 s noise-and-tone recording (`sox -R`), cut at frame `cut`, as AAC.
    private func album(cut: Int) async throws -> [URL] {
        let directory = try Fixtures.shared.scratchDirectory()
        let whole = directory.appendingPathComponent("whole.wav")
        try await ChildProcess.check("sox", RepeatableTool.arguments(for: "sox", ["-n", "-r", "44100", "-c", "2", "-b", "16", whole.path,
                                                                                 "synth", "3.5", "pinknoise", "sine", "300", "gain", "-n", "-1"]))
        var tracks: [URL] = []
        for (index, trim) in [["0", "\(cut)s"], ["\(cut)s"]].enumerated() {
            let part = directory.appendingPathComponent("part\(index).wav")
            try await ChildProcess.check("sox", [whole.path, part.path, "trim"] + trim)
            let track = directory.appendingPathComponent("track\(index + 1).m4a")
            try await ChildProcess.check("ffmpeg", ["-nostdin", "-loglevel", "error", "-i", part.path, "-c:a", "aac", "-aac_pns", "0",
                                                    "-fflags", "+bitexact", track.path])
            tracks.append(track)
        }
        return tracks
    }

    /// ffmpeg writes the edit list's duration in the movie's timescale (1000): a track of 88,207
    /// frames is said to last 2,000 ms, 88,200 frames, and its last 7 were cut at the join.
    @Test("two AAC tracks of one album join with no gap and no overlap, each exactly as encoded, cut at a whole millisecond or not (88,207 frames); --start 0.5 starts at frame 22050",
          arguments: [88200, 88207])
    func gaplessAlbum(cut: Int) async throws {
        let tracks = try await album(cut: cut)
        let output = try Fixtures.shared.scratchDirectory().appendingPathComponent("out.wav")
        let result = try await BuiltProducts.runCloudPlayerd(["play", "--quiet", "--output", "wav:\(output.path)", "--start", "0.5"]
                                                             + tracks.map(\.path))
        #expect(result.status == 0, "stderr: \(result.stderr)")
        // ffmpeg keeps each track's padding up to a whole frame: its decodes cut to the lengths encoded.
        let rest = 154_350 - cut
        let first = try await ReferenceDecoder.ffmpeg(tracks[0]).frames(from: 22050, to: cut)
        let second = try await ReferenceDecoder.ffmpeg(tracks[1]).frames(from: 0, to: rest)
        let played = try PCMAudio(wavFile: output)
        #expect(played.frameCount == cut - 22050 + rest, "the first track from 0.5 s to its end, then the second")
        #expect(played == first + second)
    }
}

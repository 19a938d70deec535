import Foundation
import Loader
import Model
import Testing
import TestSupport

/// ID3v2 tags taken out of a station's bytes (`LiveTagFilter`), against tags the real tools write:
/// ffmpeg's to a stream it cannot seek in (size 0, walked frame by frame) and LAME's (sized), the
/// bytes coming in reads of any size; audio that merely holds the letters `ID3` passes untouched.
@Suite struct LiveTagFilterTests {
    /// Runs `bytes` through a filter in reads of `chunk` bytes.
    static func filter(_ bytes: [UInt8], chunk: Int) -> (audio: [UInt8], tags: [StreamTitleChange], filter: LiveTagFilter) {
        var filter = LiveTagFilter()
        var audio: [UInt8] = [], tags: [StreamTitleChange] = []
        var index = 0
        while index < bytes.count {
            let read = filter.feed(Array(bytes[index..<min(index + chunk, bytes.count)]))
            audio += read.audio
            tags += read.tags
            index += chunk
        }
        audio += filter.finish()
        return (audio, tags, filter)
    }

    /// Three seconds of noise from LAME without its Info frame (`-t`), with `lameArguments`.
    static func song(_ name: String, _ lameArguments: [String] = []) async throws -> URL {
        let folder = try Fixtures.shared.scratchDirectory()
        let wav = folder.appendingPathComponent("\(name).wav"), mp3 = folder.appendingPathComponent("\(name).mp3")
        try await ChildProcess.check("sox", ["-n", "-r", "44100", "-c", "2", "-b", "16", wav.path, "synth", "3", "pinknoise", "vol", "0.5"])
        try await ChildProcess.check("lame", ["--quiet", "-b", "128", "-t"] + lameArguments + [wav.path, mp3.path])
        return mp3
    }

    /// A cover of about 200 KB: a PNG of noise, which does not compress.
    static func bigCover() async throws -> URL {
        let png = try Fixtures.shared.scratchDirectory().appendingPathComponent("cover.png")
        try await ChildProcess.check("ffmpeg", ["-nostdin", "-loglevel", "error", "-f", "lavfi", "-i", "nullsrc=s=256x256,geq=random(1)*255:random(2)*255:random(3)*255",
                                                "-frames:v", "1", png.path])
        return png
    }

    @Test("ffmpeg's tag as it streams it (size 0, a cover inside) is walked to its frames' end, in reads of 1, 7, 4096 bytes or all at once: the audio is the file's frames, the tag's title and artist at offset 0",
          arguments: [1, 7, 4096, Int.max])
    func ffmpegTag(chunk: Int) async throws {
        let file = try await Self.song("plain")
        let stream = try Fixtures.shared.scratchDirectory().appendingPathComponent("sent.mp3")
        // What ffmpeg sends an Icecast mount: its muxer writing where it cannot seek (a pipe here).
        try await ChildProcess.check("sh", ["-c", "ffmpeg -nostdin -loglevel error -i \"$1\" -i \"$2\" -map 0:a -map 1 -c copy "
                                            + "-metadata title='Tagged Title' -metadata artist='Tagged Artist' -f mp3 pipe:1 > \"$3\"",
                                            "sh", file.path, try await Fixtures.shared.url(.coverArt).path, stream.path])
        let sent = [UInt8](try Data(contentsOf: stream)), frames = [UInt8](try Data(contentsOf: file))
        try #require(Array(sent.prefix(10)) == Array("ID3".utf8) + [4, 0, 0, 0, 0, 0, 0], "ffmpeg wrote a size: \(sent.prefix(10))")
        let result = Self.filter(sent, chunk: chunk)
        #expect(result.audio == frames, "\(result.audio.count) bytes of audio, \(frames.count) in the file")
        #expect(result.tags.map { [$0.offset == 0 ? "0" : "\($0.offset)", $0.tags.title, $0.tags.artist] } == [["0", "Tagged Title", "Tagged Artist"]],
                "\(result.tags.map(\.offset))")
        // The cover came whole with the tag.
        #expect(result.tags.first?.tags.artwork?.data == [UInt8](try Data(contentsOf: try await Fixtures.shared.url(.coverArt))))
    }

    @Test("LAME's tags between two songs, the second's with a 200 KB cover, in reads of 1, 4096 bytes or all at once: the two songs' frames back to back, each title at its song's first byte; an ICY offset after a tag moves back by it",
          arguments: [1, 4096, Int.max])
    func tagsBetweenSongs(chunk: Int) async throws {
        let first = try await Self.song("one", ["--id3v2-only", "--tt", "Song One", "--ta", "Artist A"])
        let second = try await Self.song("two", ["--id3v2-only", "--tt", "Song Two", "--ta", "Artist B", "--ti", try await Self.bigCover().path])
        let one = [UInt8](try Data(contentsOf: first)), two = [UInt8](try Data(contentsOf: second))
        // The frames of each, found without the filter: after the tag its header sizes.
        func frames(_ bytes: [UInt8]) throws -> ArraySlice<UInt8> {
            let size = bytes[6..<10].reduce(0) { $0 << 7 | Int($1) }
            return bytes[(10 + size)...]
        }
        let (framesOne, framesTwo) = (try frames(one), try frames(two))
        try #require(two.count > 200_000 && framesOne.first == 0xFF && framesTwo.first == 0xFF)
        let result = Self.filter(one + two, chunk: chunk)
        #expect(result.audio == Array(framesOne + framesTwo))
        #expect(result.tags == [.init(offset: 0, tags: TrackTags(title: "Song One", artist: "Artist A")),
                                .init(offset: Int64(framesOne.count), tags: TrackTags(title: "Song Two", artist: "Artist B"))],
                "\(result.tags)")
        let secondTag = Int64(one.count), tagLength = Int64(two.count - framesTwo.count)
        #expect(result.filter.audioOffset(ofInput: secondTag + tagLength + 100) == Int64(framesOne.count) + 100)
        #expect(result.filter.audioOffset(ofInput: secondTag + 50) == Int64(framesOne.count))
    }

    @Test("audio holding `ID3` that is no tag — garbage after it, a header whose sizes are not seven-bit, a header followed by no frame — passes untouched, in reads of 1 and all at once",
          arguments: [1, Int.max])
    func notTags(chunk: Int) async throws {
        var bytes = [UInt8](try Data(contentsOf: try await Self.song("plain")))
        let fakes: [[UInt8]] = [
            Array("ID3".utf8) + [0x41, 0x42],
            Array("ID3".utf8) + [3, 0, 0, 0x80, 0, 0, 0] + Array("TIT2".utf8),
            Array("ID3".utf8) + [3, 0, 0, 0, 0, 1, 0] + [0xFF, 0xFB, 0x90, 0x64],
            Array("ID3".utf8) + [4, 0, 0, 0, 0, 0, 0] + [0xFF, 0xFB, 0x90, 0x64, 0, 0, 0, 0, 0, 0],
        ]
        for (index, fake) in fakes.enumerated() { bytes.insert(contentsOf: fake, at: 5000 * (index + 1)) }
        let result = Self.filter(bytes, chunk: chunk)
        #expect(result.audio == bytes)
        #expect(result.tags.isEmpty)
    }
}

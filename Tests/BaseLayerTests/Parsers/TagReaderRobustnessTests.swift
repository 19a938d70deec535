import ComponentTestSupport
import Model
import Parsers
import Testing
import TestSupport

/// Broken and hostile input: truncations, mutations and absurd size claims end in a result or a
/// thrown error, never a crash, a hang, or a huge allocation.
struct TagReaderRobustnessTests {
    /// Reads, accepting either outcome; what matters is that it returns.
    private func survive(_ bytes: [UInt8], length: Int64? = nil) async -> VirtualFile {
        let file = VirtualFile(bytes, length: length)
        _ = try? await file.read()
        return file
    }

    @Test func notAudioIsUnsupported() async throws {
        for bytes in [Array("RIFF....WAVEfmt ".utf8), Array(repeating: 0, count: 20000), Array("fLaC".utf8), [0xFF]] {
            await #expect(throws: ParseError.self) { try await VirtualFile(bytes).read() }
        }
        await #expect(throws: ParseError.malformed("an empty file")) { try await VirtualFile([]).read() }
    }

    @Test func fetchOfWrongSizeIsAnError() async throws {
        await #expect(throws: ParseError.self) {
            try await TagReader.read(length: 100_000) { _ in [0x49, 0x44, 0x33] }
        }
    }

    @Test func fetchErrorsPropagate() async throws {
        await #expect(throws: ParserFixtureError.self) {
            try await TagReader.read(length: 100) { _ in throw ParserFixtureError(message: "offline") }
        }
    }

    @Test func tagClaimingTheLargestSizeReadsOnlyItsStart() async throws {
        // Syncsafe maximum, 256 MiB, in a file that claims to be 2 GiB.
        let frame = Array("TIT2".utf8) + [0, 0, 0, 5, 0, 0, 0] + Array("Huge".utf8)
        let tag = Array("ID3".utf8) + [3, 0, 0, 0x7F, 0x7F, 0x7F, 0x7F] + frame
        let file = VirtualFile(tag, length: 2 << 30)
        let scanned = try await file.read()
        #expect(scanned.tags.title == "Huge")
        #expect(scanned.duration == nil)
        #expect(file.fetchedBytes <= TagReader.partialTag + 2 * TagReader.frameWindow)
    }

    @Test func frameClaiming2GiBIsIgnored() async throws {
        let good = Array("TALB".utf8) + [0, 0, 0, 3, 0, 0, 0] + Array("Al".utf8)
        let huge = Array("TIT2".utf8) + [0x7F, 0xFF, 0xFF, 0xFF, 0, 0, 0] + Array("x".utf8)
        let body = good + huge
        let tag = Array("ID3".utf8) + [3, 0, 0, 0, 0, 0, UInt8(body.count)] + body
        let frame: [UInt8] = [0xFF, 0xFB, 0x90, 0x64] + [UInt8](repeating: 0, count: 413)
        let scanned = try await VirtualFile(tag + frame + frame + frame).read()
        #expect(scanned.tags.album == "Al")
        #expect(scanned.tags.title == nil)
    }

    @Test func opusCommentsClaiming2GiBAreIgnored() async throws {
        var tags = Array("OpusTags".utf8) + [3, 0, 0, 0] + Array("abc".utf8) + [2, 0, 0, 0]
        tags += [8, 0, 0, 0] + Array("TITLE=Ok".utf8) + [0xFF, 0xFF, 0xFF, 0x7F] + Array("ARTIST=x".utf8)
        let head = Array("OpusHead".utf8) + [1, 2, 0x38, 0x01, 0x80, 0xBB, 0, 0, 0, 0, 0]
        let bytes = OggTestStream.pages([head, tags], serial: 7, lastGranule: 48000 + 312)
        let scanned = try await VirtualFile(bytes).read()
        #expect(scanned.tags.title == "Ok")
        #expect(scanned.tags.artist == nil)
        #expect(scanned.duration == 1)
    }

    @Test("a forged last granule (negative, or more than the file's bytes can hold) leaves the duration unknown; found by review, crashed with an overflow")
    func forgedOpusGranule() async throws {
        let head = Array("OpusHead".utf8) + [1, 2, 0x38, 0x01, 0x80, 0xBB, 0, 0, 0, 0, 0]
        let tags = Array("OpusTags".utf8) + [0, 0, 0, 0, 1, 0, 0, 0, 8, 0, 0, 0] + Array("TITLE=Ok".utf8)
        for granule in [Int64.min, -2, Int64.max, 1 << 40] {
            let bytes = OggTestStream.pages([head, tags, [0xFC]], serial: 5, lastGranule: granule)
            let scanned = try await VirtualFile(bytes).read()
            #expect(scanned.tags.title == "Ok" && scanned.duration == nil, "granule \(granule)")
        }
        // The bound is not in the way of a real one: the same file, one second long.
        let real = try await VirtualFile(OggTestStream.pages([head, tags, [0xFC]], serial: 5, lastGranule: 48000 + 312)).read()
        #expect(real.duration == 1)
    }

    @Test func callableFromAnActorWithAClosureOverItsState() async throws {
        let head = Array("OpusHead".utf8) + [1, 1, 0x38, 0x01, 0x80, 0xBB, 0, 0, 0, 0, 0]
        let tags = Array("OpusTags".utf8) + [0, 0, 0, 0, 1, 0, 0, 0, 9, 0, 0, 0] + Array("ARTIST=Me".utf8)
        let bytes = OggTestStream.pages([head, tags, [0xFC]], serial: 9, lastGranule: 24000 + 312)
        let (scanned, fetched) = try await ScanningActor(bytes).scan()
        #expect(scanned == ScannedTags(codec: .opus, tags: TrackTags(artist: "Me"), duration: 0.5))
        #expect(fetched == bytes.count)
    }

    @Test func opusHeadersThatNeverEndStopAtTheCap() async throws {
        // A header page whose packet goes on, in a file claiming 2 GiB of zeros after it.
        let head = Array("OpusHead".utf8) + [1, 2, 0x38, 0x01, 0x80, 0xBB, 0, 0, 0, 0, 0]
        let bytes = OggTestStream.pages([head, [UInt8](repeating: 0x41, count: 255 * 3)], serial: 1, lastGranule: 0,
                                        openLastPacket: true)
        let file = await survive(bytes, length: 2 << 30)
        #expect(file.fetchedBytes <= TagReader.headSize * 2)
    }

    @Test(.enabled(if: ParserFixtures.have("sox", "lame", "opusenc")))
    func everyPrefixOfSmallFiles() async throws {
        let fixtures = try ParserFixtures()
        try fixtures.tone("a.wav", seconds: 0.3)
        try fixtures.write("c.png", ParserFixtures.png(size: 100))
        try fixtures.run("lame", ["-S", "--tt", "T", "--ta", "A", "--tn", "2", "--ti", "c.png", "a.wav", "a.mp3"])
        try fixtures.run("opusenc", ["--quiet", "--title", "T", "--picture", "c.png", "a.wav", "a.opus"])
        for name in ["a.mp3", "a.opus"] {
            let bytes = try fixtures.bytes(name)
            for length in 0...bytes.count {
                _ = await survive(Array(bytes[..<length]))
            }
        }
    }

    @Test(.enabled(if: ParserFixtures.have("sox", "lame", "opusenc")))
    func thousandsOfMutations() async throws {
        let fixtures = try ParserFixtures()
        try fixtures.tone("a.wav", seconds: 0.4, rate: 22050, channels: 1)
        try fixtures.write("c.png", ParserFixtures.png(size: 64))
        try fixtures.run("lame", ["-S", "--tt", "T", "--ta", "A", "--tn", "2", "--ti", "c.png", "a.wav", "a.mp3"])
        try fixtures.run("lame", ["-S", "--id3v1-only", "--tt", "T", "a.wav", "b.mp3"])
        try fixtures.run("opusenc", ["--quiet", "--title", "T", "--picture", "c.png", "a.wav", "a.opus"])
        var generator = MutationGenerator(seed: 0xC10D)
        var results = 0
        for name in ["a.mp3", "b.mp3", "a.opus"] {
            let original = try fixtures.bytes(name)
            for _ in 0..<1200 {
                if (try? await VirtualFile(generator.mutate(original)).read()) != nil { results += 1 }
            }
        }
        #expect(results > 0)
    }
}

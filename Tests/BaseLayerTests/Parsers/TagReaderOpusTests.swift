import ComponentTestSupport
import Model
import Parsers
import Testing

/// Opus files made by opusenc: comments and pictures as given, durations to the sample as
/// opusdec decodes them.
@Suite(.enabled(if: ParserFixtures.have("sox", "opusenc", "opusdec", "soxi")))
struct TagReaderOpusTests {
    private func samples(_ scanned: ScannedTags) -> Int {
        Int(((scanned.duration ?? -1) * 48000).rounded())
    }

    @Test func commentsPictureAndExactDuration() async throws {
        let fixtures = try ParserFixtures()
        let cover = ParserFixtures.png()
        try fixtures.write("cover.png", cover)
        try fixtures.tone("a.wav", seconds: 2.345)
        try fixtures.run("opusenc", ["--quiet", "--title", "Tïtle ✓", "--artist", "Artist", "--album", "Album",
                                     "--date", "2020-05-01", "--genre", "Ambient", "--comment", "TRACKNUMBER=3/12",
                                     "--comment", "DISCNUMBER=2", "--comment", "ALBUMARTIST=Various",
                                     "--picture", "cover.png", "a.wav", "a.opus"])
        let file = VirtualFile(try fixtures.bytes("a.opus"))
        let scanned = try await file.read()
        #expect(scanned.codec == .opus)
        #expect(scanned.tags == TrackTags(title: "Tïtle ✓", artist: "Artist", album: "Album", albumArtist: "Various",
                                          trackNumber: 3, genre: "Ambient", artwork: Artwork(data: cover, mimeType: "image/png"),
                                          year: 2020, discNumber: 2, more: [.date: "2020-05-01"]))
        #expect(samples(scanned) == (try fixtures.opusdecSamples("a.opus")))
    }

    @Test(arguments: [(0.05, 48000, 1), (1.0, 44100, 2), (7.3, 22050, 1), (13.37, 48000, 2)])
    func durationMatchesOpusdec(seconds: Double, rate: Int, channels: Int) async throws {
        let fixtures = try ParserFixtures()
        try fixtures.tone("a.wav", seconds: seconds, rate: rate, channels: channels)
        try fixtures.run("opusenc", ["--quiet", "a.wav", "a.opus"])
        let scanned = try await VirtualFile(try fixtures.bytes("a.opus")).read()
        #expect(samples(scanned) == (try fixtures.opusdecSamples("a.opus")))
    }

    @Test func threeMinuteOpusFetchesAtMost70KiB() async throws {
        let fixtures = try ParserFixtures()
        try fixtures.tone("a.wav", seconds: 180)
        try fixtures.run("opusenc", ["--quiet", "--title", "Long", "--artist", "Artist", "--comment", "TRACKNUMBER=1",
                                     "a.wav", "a.opus"])
        let file = VirtualFile(try fixtures.bytes("a.opus"))
        let scanned = try await file.read()
        #expect(scanned.tags.title == "Long")
        #expect(file.fetchedBytes <= 70 * 1024)
        #expect(samples(scanned) == (try fixtures.opusdecSamples("a.opus")))
        print("Opus 3:00 tagged, no art: fetched \(file.fetchedBytes) bytes in \(file.requests.count) requests")
    }

    @Test func largePictureSpanningPagesIsFetched() async throws {
        let fixtures = try ParserFixtures()
        let cover = ParserFixtures.png(size: 300_000)
        try fixtures.write("cover.png", cover)
        try fixtures.tone("a.wav", seconds: 3)
        try fixtures.run("opusenc", ["--quiet", "--title", "Pictured", "--picture", "cover.png", "a.wav", "a.opus"])
        let file = VirtualFile(try fixtures.bytes("a.opus"))
        let scanned = try await file.read()
        #expect(scanned.tags.title == "Pictured")
        #expect(scanned.tags.artwork?.data == cover)
        #expect(samples(scanned) == (try fixtures.opusdecSamples("a.opus")))
        // Doubling from 16 KiB: a handful of requests, never the whole audio.
        #expect(file.requests.count <= 8)
    }

    @Test func highBitrateTailNeedsTheWiderWindow() async throws {
        let fixtures = try ParserFixtures()
        try fixtures.run("sox", ["-n", "-r", "48000", "-c", "2", "-b", "16", "a.wav", "synth", "12", "whitenoise"])
        // One-second pages at 510 kb/s are ~64 KB: the last page does not fit in 8 KiB.
        try fixtures.run("opusenc", ["--quiet", "--hard-cbr", "--bitrate", "510", "--max-delay", "1000", "a.wav", "a.opus"])
        let file = VirtualFile(try fixtures.bytes("a.opus"))
        let scanned = try await file.read()
        #expect(samples(scanned) == (try fixtures.opusdecSamples("a.opus")))
        #expect(file.requests.map(\.count) == [16 * 1024, 8 * 1024, 64 * 1024 - 8 * 1024])
    }
}

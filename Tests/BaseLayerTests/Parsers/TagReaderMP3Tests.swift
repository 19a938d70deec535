import ComponentTestSupport
import Model
import Parsers
import Testing

/// MP3 files made by lame, eyeD3 and id3v2: tags as written, durations to the sample as mpg123
/// decodes them.
@Suite(.enabled(if: ParserFixtures.have("sox", "lame", "mpg123", "soxi")))
struct TagReaderMP3Tests {
    let cover = ParserFixtures.jpeg()

    private func scan(_ fixtures: ParserFixtures, _ name: String) async throws -> (ScannedTags, VirtualFile) {
        let file = VirtualFile(try fixtures.bytes(name))
        return (try await file.read(), file)
    }

    private func durationSamples(_ scanned: ScannedTags, rate: Int) -> Int {
        Int(((scanned.duration ?? -1) * Double(rate)).rounded())
    }

    @Test func vbrWithID3v23AndCoverHasExactDuration() async throws {
        let fixtures = try ParserFixtures()
        try fixtures.tone("a.wav", seconds: 3.3)
        try fixtures.write("cover.jpg", cover)
        try fixtures.run("lame", ["-S", "--noreplaygain", "-V", "2", "--tt", "Title", "--ta", "Artist", "--tl", "Album",
                                  "--ty", "2021", "--tn", "3/12", "--tg", "Rock", "--ti", "cover.jpg", "a.wav", "a.mp3"])
        let (scanned, _) = try await scan(fixtures, "a.mp3")
        #expect(scanned.codec == .mp3)
        #expect(scanned.tags.text == TrackTags(title: "Title", artist: "Artist", album: "Album", trackNumber: 3, genre: "Rock",
                                          artwork: Artwork(data: cover, mimeType: "image/jpeg"), year: 2021, more: [.date: "2021"]))
        #expect(durationSamples(scanned, rate: 44100) == (try fixtures.mpg123Samples("a.mp3")))
    }

    /// lame resamples for low qualities and bitrates (to 22.05 or 32 kHz): the rate is mpg123's.
    @Test(arguments: [["-b", "128"], ["-V", "0"], ["-V", "9"], ["--abr", "96"], ["-b", "320", "-m", "m"], ["-b", "8"]])
    func lameInfoHeadersGiveMpg123sSampleCount(_ options: [String]) async throws {
        let fixtures = try ParserFixtures()
        try fixtures.tone("a.wav", seconds: 1.7)
        try fixtures.run("lame", ["-S"] + options + ["a.wav", "a.mp3"])
        let (scanned, _) = try await scan(fixtures, "a.mp3")
        let expected = try fixtures.mpg123Samples("a.mp3")
        let rate = try fixtures.sampleRate("a.mp3.wav")
        #expect(durationSamples(scanned, rate: rate) == expected)
    }

    @Test func mpeg2MonoAt22kHz() async throws {
        let fixtures = try ParserFixtures()
        try fixtures.tone("a.wav", seconds: 2.1, rate: 22050, channels: 1)
        try fixtures.run("lame", ["-S", "-m", "m", "-V", "5", "--tt", "Low", "a.wav", "a.mp3"])
        try fixtures.run("lame", ["-S", "-m", "m", "-b", "32", "a.wav", "b.mp3"])
        let (vbr, _) = try await scan(fixtures, "a.mp3")
        #expect(durationSamples(vbr, rate: 22050) == (try fixtures.mpg123Samples("a.mp3")))
        // A 104-byte frame has no room for lame's Info header: an estimate, within a frame.
        let (cbr, _) = try await scan(fixtures, "b.mp3")
        #expect(abs(durationSamples(cbr, rate: 22050) - (try fixtures.mpg123Samples("b.mp3"))) <= 576)
        #expect(try await scan(fixtures, "a.mp3").0.tags.title == "Low")
    }

    @Test func cbrWithoutXingIsEstimatedFromBitrate() async throws {
        let fixtures = try ParserFixtures()
        try fixtures.tone("a.wav", seconds: 3.3)
        try fixtures.run("lame", ["-S", "-b", "128", "-t", "--id3v2-only", "--tt", "Plain", "a.wav", "a.mp3"])
        let (scanned, _) = try await scan(fixtures, "a.mp3")
        #expect(scanned.tags.title == "Plain")
        // No header to make it exact: within one frame of what mpg123 decodes.
        #expect(abs(durationSamples(scanned, rate: 44100) - (try fixtures.mpg123Samples("a.mp3"))) <= 1152)
    }

    @Test func id3v1OnlyWithTrackNumber() async throws {
        let fixtures = try ParserFixtures()
        try fixtures.tone("a.wav", seconds: 1)
        try fixtures.run("lame", ["-S", "--id3v1-only", "--tt", "Old Title", "--ta", "Old Artist", "--tl", "Old Album",
                                  "--ty", "1999", "--tn", "7", "--tg", "Jazz", "a.wav", "a.mp3"])
        let (scanned, file) = try await scan(fixtures, "a.mp3")
        #expect(scanned.tags.text == TrackTags(title: "Old Title", artist: "Old Artist", album: "Old Album", trackNumber: 7,
                                          genre: "Jazz", year: 1999))
        #expect(durationSamples(scanned, rate: 44100) == (try fixtures.mpg123Samples("a.mp3")))
        #expect(file.requests.count == 2)
    }

    @Test func id3v1FillsOnlyWhatID3v2Lacks() async throws {
        let fixtures = try ParserFixtures()
        try fixtures.tone("a.wav", seconds: 1)
        try fixtures.run("lame", ["-S", "--id3v1-only", "--tt", "V1 Title", "--ta", "V1 Artist", "--tn", "9", "a.wav", "a.mp3"])
        // Prepend an ID3v2.3 tag with only a title.
        let title = Array("V2 Title".utf8)
        let frame = Array("TIT2".utf8) + [0, 0, 0, UInt8(title.count + 1), 0, 0, 0] + title
        let tag = Array("ID3".utf8) + [3, 0, 0, 0, 0, 0, UInt8(frame.count)] + frame
        try fixtures.write("b.mp3", tag + (try fixtures.bytes("a.mp3")))
        let (scanned, _) = try await scan(fixtures, "b.mp3")
        #expect(scanned.tags.title == "V2 Title")
        #expect(scanned.tags.artist == "V1 Artist")
        #expect(scanned.tags.trackNumber == 9)
    }

    @Test("a player starting an MP3 reads its ID3v1 tail only where it is here (from a server, a request of its own before the first sample)")
    func id3v1ReadOnlyWhereHeld() async throws {
        let fixtures = try ParserFixtures()
        try fixtures.tone("a.wav", seconds: 1)
        try fixtures.run("lame", ["-S", "--id3v1-only", "--tt", "V1 Title", "--ta", "V1 Artist", "a.wav", "a.mp3"])
        let title = Array("V2 Title".utf8)
        let frame = Array("TIT2".utf8) + [0, 0, 0, UInt8(title.count + 1), 0, 0, 0] + title
        let bytes = Array("ID3".utf8) + [3, 0, 0, 0, 0, 0, UInt8(frame.count)] + frame + (try fixtures.bytes("a.mp3"))
        let length = Int64(bytes.count)
        for held in [false, true] {
            var ranges: [Range<Int64>] = []
            let scanned = try await TagReader.read(length: length, readingTail: { _ in held }) { range in
                ranges.append(range)
                return Array(bytes[Int(range.lowerBound)..<Int(range.upperBound)])
            }
            #expect(scanned.tags.title == "V2 Title" && scanned.tags.artist == (held ? "V1 Artist" : nil), "\(scanned.tags)")
            #expect(ranges.contains { $0.upperBound == length && $0.count == 128 } == held, "\(ranges)")
        }
    }

    @Test(.enabled(if: ParserFixtures.have("eyeD3")), arguments: ["utf16", "utf16-be", "utf8", "latin1"])
    func id3v24TextEncodings(_ encoding: String) async throws {
        let fixtures = try ParserFixtures()
        try fixtures.tone("a.wav", seconds: 1)
        try fixtures.run("lame", ["-S", "--id3v2-only", "--tt", "x", "a.wav", "a.mp3"])
        let title = encoding == "latin1" ? "Tïtlé" : "Tïtle ✓ 𝄞"
        try fixtures.run("eyeD3", ["-Q", "--to-v2.4", "--encoding", encoding, "-t", title, "-a", "Ärtist", "-A", "Albüm",
                                   "-b", "Various", "-n", "3", "-N", "12", "-d", "2", "-D", "3", "--recording-date", "2019-04-05",
                                   "-G", "Jazz", "a.mp3"])
        #expect(try fixtures.bytes("a.mp3")[3] == 4)
        let (scanned, _) = try await scan(fixtures, "a.mp3")
        #expect(scanned.tags.text == TrackTags(title: title, artist: "Ärtist", album: "Albüm", albumArtist: "Various", trackNumber: 3,
                                          genre: "Jazz", year: 2019, discNumber: 2, more: [.date: "2019"]))
        #expect(durationSamples(scanned, rate: 44100) == (try fixtures.mpg123Samples("a.mp3")))
    }

    @Test(.enabled(if: ParserFixtures.have("eyeD3")))
    func id3v24FrontCoverIsPreferred() async throws {
        let fixtures = try ParserFixtures()
        try fixtures.tone("a.wav", seconds: 1)
        try fixtures.run("lame", ["-S", "--id3v2-only", "--tt", "x", "a.wav", "a.mp3"])
        let back = ParserFixtures.jpeg(size: 300), front = ParserFixtures.png(size: 900)
        try fixtures.write("back.jpg", back)
        try fixtures.write("front.png", front)
        try fixtures.run("eyeD3", ["-Q", "--to-v2.4", "--add-image", "back.jpg:BACK_COVER", "--add-image", "front.png:FRONT_COVER",
                                   "a.mp3"])
        let (scanned, _) = try await scan(fixtures, "a.mp3")
        #expect(scanned.tags.artwork == Artwork(data: front, mimeType: "image/png"))
    }

    @Test(.enabled(if: ParserFixtures.have("id3v2")))
    func numericGenreFromID3v2Tool() async throws {
        let fixtures = try ParserFixtures()
        try fixtures.tone("a.wav", seconds: 1)
        try fixtures.run("lame", ["-S", "a.wav", "a.mp3"])
        try fixtures.run("id3v2", ["-2", "-g", "17", "-t", "Numbered", "-T", "4/9", "a.mp3"])
        let (scanned, _) = try await scan(fixtures, "a.mp3")
        #expect(scanned.tags.genre == "Rock")
        #expect(scanned.tags.title == "Numbered")
        #expect(scanned.tags.trackNumber == 4)
    }

    @Test func threeMinuteTaggedMP3FetchesAtMost70KiB() async throws {
        let fixtures = try ParserFixtures()
        try fixtures.tone("a.wav", seconds: 180)
        try fixtures.run("lame", ["-S", "--noreplaygain", "-V", "2", "--tt", "Long", "--ta", "Artist", "--tl", "Album",
                                  "--ty", "2020", "--tn", "1/10", "--tg", "Pop", "a.wav", "a.mp3"])
        let (scanned, file) = try await scan(fixtures, "a.mp3")
        #expect(scanned.tags.title == "Long")
        #expect(file.fetchedBytes <= 70 * 1024)
        #expect(file.fetchedBytes == 16 * 1024 + 128)
        #expect(durationSamples(scanned, rate: 44100) == (try fixtures.mpg123Samples("a.mp3")))
        print("MP3 3:00 tagged, no art: fetched \(file.fetchedBytes) bytes in \(file.requests.count) requests")
    }

    @Test func largeCoverIsFetchedWithTheTag() async throws {
        let fixtures = try ParserFixtures()
        try fixtures.tone("a.wav", seconds: 2)
        let big = ParserFixtures.jpeg(size: 100_000)
        try fixtures.write("cover.jpg", big)
        try fixtures.run("lame", ["-S", "--tt", "Big", "--ti", "cover.jpg", "a.wav", "a.mp3"])
        let (scanned, file) = try await scan(fixtures, "a.mp3")
        #expect(scanned.tags.artwork?.data == big)
        #expect(file.requests.count == 3)  // head, rest of tag + first frame, ID3v1
        #expect(durationSamples(scanned, rate: 44100) == (try fixtures.mpg123Samples("a.mp3")))
    }
}

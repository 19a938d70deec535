import Foundation

/// The audio the internet-radio rigs broadcast (`ICYStreamServer`, and the Icecast sources), made
/// on first use like `Fixtures` and as repeatably (`RepeatableTool`), but apart from it: only the
/// radio tests pay for three minutes of MP3, not every test that wants a fixture.
public actor RadioFixtures {
    public enum File: String, CaseIterable, Sendable {
        /// 180 s, LAME 128 kbit/s CBR at 44.1 kHz stereo, no Xing/Info frame and no tags — what a
        /// station sends: 16,000 bytes a second, so byte offset N is N / 16000 s in. Three parts
        /// of 60 s that sound different (pink noise with a 330 Hz tone, brown noise with 440 Hz,
        /// then the first again), so a stretch of audio tells where in the stream it came from.
        case station = "station.mp3"
        /// Three tracks of 5 s each, 128 kbit/s CBR with ID3v2 artist and title (`songs`), for an
        /// MP3 playlist (ezstream) whose metadata changes with each track.
        case firstSongMP3 = "song1.mp3"
        case secondSongMP3 = "song2.mp3"
        case thirdSongMP3 = "song3.mp3"
        /// The same three tracks as Ogg Vorbis (q3), their `ARTIST` and `TITLE` comments the same,
        /// each with its own serial number: streamed one after another (ices2) each is a new link.
        case firstSongVorbis = "song1.ogg"
        case secondSongVorbis = "song2.ogg"
        case thirdSongVorbis = "song3.ogg"
    }

    /// Artist and title of the three songs, in order: the second title is not ASCII, so what a
    /// server makes of UTF-8 shows.
    public static let songs: [(artist: String, title: String)] = [
        ("Radio Artist One", "First Song"), ("Radio Artist Two", "Second Song Café"), ("Radio Artist Three", "Third Song"),
    ]

    public static let mp3Songs: [File] = [.firstSongMP3, .secondSongMP3, .thirdSongMP3]
    public static let vorbisSongs: [File] = [.firstSongVorbis, .secondSongVorbis, .thirdSongVorbis]

    /// Bytes a second of `station` (128 kbit/s).
    public static let stationBytesPerSecond = 16000

    public static let shared = RadioFixtures()

    private var generation: Task<URL, any Error>?

    /// The path of a fixture, making all of them on first use.
    public func url(_ file: File) async throws -> URL {
        if generation == nil {
            generation = Task { try await Self.generate(in: try ScratchSpace.directory()) }
        }
        return try await generation!.value.appendingPathComponent(file.rawValue)
    }

    /// The paths of several fixtures, in order (a playlist).
    public func urls(_ files: [File]) async throws -> [URL] {
        var urls: [URL] = []
        for file in files { urls.append(try await url(file)) }
        return urls
    }

    /// The three Vorbis songs one after another in one file: a chained Ogg stream, each song a
    /// link with its serial number and comments, as ices2 sends them. A new file on each call.
    public func vorbisChain() async throws -> URL {
        let chain = try ScratchSpace.directory().appendingPathComponent("chain.ogg")
        try Data(try await urls(Self.vorbisSongs).map { try Data(contentsOf: $0) }.joined()).write(to: chain)
        return chain
    }

    private static func generate(in dir: URL) async throws -> URL {
        @Sendable func path(_ name: String) -> String { dir.appendingPathComponent(name).path }
        @Sendable func sox(_ arguments: String...) async throws {
            try await ChildProcess.check("sox", RepeatableTool.arguments(for: "sox", arguments))
        }
        let tones = [330, 440, 550]
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                try await sox("-n", "-r", "44100", "-c", "2", "-b", "16", path("pink.wav"),
                              "synth", "60", "pinknoise", "synth", "60", "sine", "amod", "330", "vol", "0.5")
                try await sox("-n", "-r", "44100", "-c", "2", "-b", "16", path("brown.wav"),
                              "synth", "60", "brownnoise", "synth", "60", "sine", "amod", "440", "vol", "0.5")
                try await sox(path("pink.wav"), path("brown.wav"), path("pink.wav"), path("station.wav"))
                try await ChildProcess.check("lame", ["--quiet", "-b", "128", "-t", path("station.wav"), path(File.station.rawValue)])
            }
            for (index, song) in songs.enumerated() {
                let wav = path("song\(index + 1).wav")
                let mp3 = path(RadioFixtures.mp3Songs[index].rawValue), ogg = path(RadioFixtures.vorbisSongs[index].rawValue)
                group.addTask {
                    try await sox("-n", "-r", "44100", "-c", "2", "-b", "16", wav,
                                  "synth", "5", "pinknoise", "synth", "5", "sine", "amod", "\(tones[index])", "vol", "0.5")
                    try await ChildProcess.check("lame", ["--quiet", "-b", "128", "--id3v2-only", "--ta", song.artist,
                                                          "--tt", song.title, wav, mp3])
                    try await ChildProcess.check("oggenc", ["-Q", "--serial", "\(41 + index)", "-q", "3", "-a", song.artist,
                                                            "-t", song.title, "-o", ogg, wav])
                }
            }
            try await group.waitForAll()
        }
        return dir
    }
}

import Foundation
import Testing
import TestSupport

/// The internet-radio servers the live-stream tests stand on, checked with real clients (curl,
/// mpg123, ffmpeg, ffprobe) before a player is trusted against them: icy_stream.py sends what it
/// is told to, where it is told to; Icecast fed by ffmpeg, ezstream and ices2 goes live, serves
/// audio, and its titles change as the sources say.
@Suite(.timeLimit(.minutes(3)))
struct RadioServerRigTests {
    // MARK: icy_stream.py

    @Test("the ICY stream, metadata asked for and stripped by mpg123, decodes to the file's own PCM")
    func icyStreamDecodesAsTheFile() async throws {
        let file = try await RadioFixtures.shared.url(.firstSongMP3)
        var options = ICYStreamServer.Options()
        options.pace = .asFastAsPossible
        options.metaint = "8192"
        options.titles = [.init(at: 0, "Artist A - Song A"), .init(at: 40000, "Artist B - Song B")]
        let server = try await ICYStreamServer(file: file, options: options)
        let folder = try Fixtures.shared.scratchDirectory()
        let streamed = folder.appendingPathComponent("streamed.wav"), direct = folder.appendingPathComponent("direct.wav")
        try await ChildProcess.check("mpg123", ["-q", "-w", streamed.path, server.url.absoluteString])
        try await ChildProcess.check("mpg123", ["-q", "-w", direct.path, file.path])
        let heard = try PCMAudio(wavFile: streamed), reference = try PCMAudio(wavFile: direct)
        #expect(heard.frameCount > 44100 * 4, "\(heard)")
        #expect(heard == reference, "the stream decoded to \(heard), the file to \(reference)")
        let request = try #require(try server.requests().first)
        #expect(request.header("Icy-MetaData") == "1", "mpg123 did not ask for metadata: \(request.headers)")
        // ffmpeg (its HTTP client asks for metadata too) hears what it hears from the file read
        // as a stream too: unseekable, it cannot trim the LAME padding at the end as it does in a file.
        let ffmpegStreamed = try await pcm(["-f", "mp3", "-i", server.url.absoluteString])
        let ffmpegPiped = try await pcm(["-f", "mp3", "-i", "pipe:0"], input: file)
        #expect(ffmpegStreamed == ffmpegPiped, "ffmpeg: \(ffmpegStreamed.count) bytes of PCM from the stream, \(ffmpegPiped.count) from the file")
    }

    @Test("curl with Icy-MetaData: 1 gets icy-metaint and each scheduled title in the block before its audio; without, plain audio")
    func curlSeesTitlesWhereScheduled() async throws {
        let file = try await RadioFixtures.shared.url(.station)
        let minute = 60 * RadioFixtures.stationBytesPerSecond
        var options = ICYStreamServer.Options()
        options.pace = .asFastAsPossible
        options.name = "Rig FM"
        options.genre = "Noise"
        options.homepage = "http://127.0.0.1/rig"
        options.titles = [.init(at: 0, "Artist A - Song A"), .init(at: minute, "Artist B - Song B"),
                          .init(at: 2 * minute, "Artist C - Sóng C")]
        let server = try await ICYStreamServer(file: file, options: options)
        let original = try Data(contentsOf: file)

        let (head, body) = try await fetch(server.url, headers: ["Icy-MetaData: 1"])
        #expect(head.hasPrefix("HTTP/1.0 200 OK\r\n"), "\(head)")
        #expect(!head.lowercased().contains("content-length"), "\(head)")
        for line in ["Content-Type: audio/mpeg", "icy-metaint: 16000", "icy-name: Rig FM", "icy-genre: Noise",
                     "icy-url: http://127.0.0.1/rig", "icy-br: 128"] {
            #expect(head.contains(line + "\r\n"), "no \(line) in \(head)")
        }
        let stream = ICYStreamBody(body, metaint: 16000)
        #expect(stream.audio == original, "the audio between the blocks is not the file (\(stream.audio.count) of \(original.count) bytes)")
        #expect(!stream.endsInsideBlock)
        #expect(stream.blocks.count == original.count / 16000)
        #expect(stream.titles.map(\.audioOffset) == [16000, minute, 2 * minute])
        #expect(stream.titles.map(\.title) == ["Artist A - Song A", "Artist B - Song B", "Artist C - Sóng C"])
        #expect(stream.blocks.filter { $0.lengthByte == 0 }.count == stream.blocks.count - 3, "a block repeated a title")
        // `StreamTitle='Artist C - Sóng C';` is 33 bytes: 3 × 16, the last 15 NULs.
        let third = try #require(stream.blocks.first { $0.title == "Artist C - Sóng C" })
        #expect(third.lengthByte == 3 && third.content.suffix(15).allSatisfy { $0 == 0 }, "\(third)")

        let (plainHead, plainBody) = try await fetch(server.url, headers: [])
        #expect(!plainHead.contains("icy-metaint"), "\(plainHead)")
        #expect(plainBody == original)
        #expect(try server.requests().map { $0.header("Icy-MetaData") } == ["1", nil])
    }

    @Test("at 4 × real time after a burst, the stream takes at least the time its bytes are due")
    func pacesByTheBitrate() async throws {
        var options = ICYStreamServer.Options()
        options.pace = .times(4)
        options.burst = 16000
        options.loop = true
        let server = try await ICYStreamServer(file: try await RadioFixtures.shared.url(.station), options: options)
        let started = ContinuousClock.now
        let (_, body) = try await fetch(server.url, headers: [], bytes: 16000 + 64000)
        let took = ContinuousClock.now - started
        #expect(body.count == 80000)
        // 64,000 bytes at 4 × 16,000 a second are due after 1 s; load can only make it later.
        #expect(took >= .milliseconds(950), "80 kB of a 4 × real-time stream came in \(took)")
    }

    @Test("a stream dropped after 30 kB twice, resumed: three requests in the log, starting at 0, 30 kB, 60 kB; together the file")
    func dropsAndResumes() async throws {
        let file = try await RadioFixtures.shared.url(.secondSongMP3)
        var options = ICYStreamServer.Options()
        options.pace = .asFastAsPossible
        options.fault = .drop(afterBytes: 30000, connections: 2, resume: true)
        let server = try await ICYStreamServer(file: file, options: options)
        var joined = Data()
        for _ in 0..<3 {
            joined += try await fetch(server.url, headers: []).body
        }
        #expect(joined == (try Data(contentsOf: file)))
        let requests = try await server.waitForRequests(3)
        #expect(requests.map(\.start) == [0, 30000, 60000])
        #expect(requests.map(\.number) == [1, 2, 3])
    }

    @Test("a stalled stream and one never answered keep the connection open, silent, past what they sent")
    func stallsAndSilences() async throws {
        let file = try await RadioFixtures.shared.url(.firstSongMP3)
        var stalling = ICYStreamServer.Options()
        stalling.pace = .asFastAsPossible
        stalling.fault = .stall(afterBytes: 5000)
        let stalled = try await ICYStreamServer(file: file, options: stalling)
        var silent = ICYStreamServer.Options()
        silent.fault = .neverAnswer
        let mute = try await ICYStreamServer(file: file, options: silent)
        // The probe reads until the server has sent what it will (5,000 bytes after the head, or
        // the request is in the server's log), then looks once: nothing waiting, not closed.
        #expect(try await probe(stalled, untilBody: 5000) == "open 5000")
        #expect(try await probe(mute, untilBody: nil) == "open 0")
    }

    // MARK: Icecast

    @Test("Icecast fed by ffmpeg: live, MP3 audio to ffprobe and ffmpeg, ICY headers, and a title set by the admin API reaches the status")
    func icecastWithFFmpeg() async throws {
        let icecast = try await IcecastServer()
        let source = try await icecast.startFFmpegSource(playing: try await RadioFixtures.shared.url(.station), mount: "/live.mp3")
        let url = icecast.url(source.mount)
        let mount = try await icecast.waitForMount("/live.mp3")
        #expect(mount.contentType == "audio/mpeg" && mount.name == "FFmpeg Radio", "\(mount)")
        #expect(try await probe(url, format: "mp3") == "codec_name=mp3|sample_rate=44100|channels=2")
        #expect(try await pcm(["-f", "mp3", "-t", "1", "-i", url.absoluteString]).count == 176_400)
        let (head, body) = try await fetch(url, headers: ["Icy-MetaData: 1"], bytes: 40000)
        #expect(head.contains("icy-metaint:16000\r\n") && head.contains("icy-name:FFmpeg Radio\r\n"), "\(head)")
        #expect(ICYStreamBody(body, metaint: 16000).blocks.count == 2)
        try await icecast.updateTitle("/live.mp3", to: "Artist Z - Sóng Z")
        try await icecast.waitForMount("/live.mp3") { $0.title == "Artist Z - Sóng Z" }
    }

    @Test("Icecast fed by ezstream: live, MP3 audio, each track's ID3 artist and title in the status as it starts")
    func icecastWithEzstream() async throws {
        let icecast = try await IcecastServer()
        let songs = try await RadioFixtures.shared.urls(RadioFixtures.mp3Songs)
        let source = try await icecast.startEzstream(playlist: songs)
        let url = icecast.url(source.mount)
        let titles = RadioFixtures.songs.map { "\($0.artist) - \($0.title)" }
        try await icecast.waitForMount(source.mount, source: source) { $0.title == titles[0] }
        #expect(try await probe(url, format: "mp3") == "codec_name=mp3|sample_rate=44100|channels=2")
        #expect(try await pcm(["-f", "mp3", "-t", "1", "-i", url.absoluteString]).count == 176_400)
        source.signal(SIGUSR1)  // ezstream: on to the next track now
        try await icecast.waitForMount(source.mount, source: source) { $0.title == titles[1] }
        #expect(source.log().contains("streaming: \(titles[1])"), "\(source.log())")
    }

    @Test("Icecast fed by ices2: live, Ogg Vorbis audio, each file a link whose TITLE and ARTIST reach the status")
    func icecastWithIces2() async throws {
        let icecast = try await IcecastServer()
        let songs = try await RadioFixtures.shared.urls(RadioFixtures.vorbisSongs)
        let source = try await icecast.startIces(playlist: songs)
        let url = icecast.url(source.mount)
        let first = try await icecast.waitForMount(source.mount, source: source) { $0.title == RadioFixtures.songs[0].title }
        #expect(first.artist == RadioFixtures.songs[0].artist && first.contentType == "application/ogg", "\(first)")
        #expect(try await probe(url, format: "ogg") == "codec_name=vorbis|sample_rate=44100|channels=2")
        #expect(try await pcm(["-f", "ogg", "-t", "1", "-i", url.absoluteString]).count == 176_400)
        // The next file, 5 s of audio later: a new link, its own comments.
        let second = try await icecast.waitForMount(source.mount, source: source) { $0.title == RadioFixtures.songs[1].title }
        #expect(second.artist == RadioFixtures.songs[1].artist, "\(second)")
    }

    // MARK: Clients

    /// A GET with curl: the answer's head and up to `bytes` of its body (all of it when nil: the
    /// server closes). `-f` is not given: a 404 must come back as it is.
    private func fetch(_ url: URL, headers: [String], bytes: Int? = nil) async throws -> (head: String, body: Data) {
        let folder = try Fixtures.shared.scratchDirectory()
        let head = folder.appendingPathComponent("head"), body = folder.appendingPathComponent("body")
        let curl = ["curl", "-s", "-D", head.path] + headers.flatMap { ["-H", $0] } + [url.absoluteString]
        if let bytes {
            // head ends once it has them; curl then ends on the broken pipe.
            _ = try await ChildProcess.run("/bin/sh", ["-c", #"out=$1; n=$2; shift 2; "$@" | head -c "$n" > "$out""#, "fetch",
                                                   body.path, String(bytes)] + curl)
        } else {
            try await ChildProcess.check(curl[0], Array(curl.dropFirst()) + ["-o", body.path])
        }
        return (try String(contentsOf: head, encoding: .isoLatin1), try Data(contentsOf: body))
    }

    /// ffmpeg's decoding of `input` (its arguments; `file` on its standard input) to 16-bit PCM.
    private func pcm(_ input: [String], input file: URL? = nil) async throws -> Data {
        let output = try Fixtures.shared.scratchDirectory().appendingPathComponent("out.raw")
        try await ChildProcess.check("ffmpeg", (file == nil ? ["-nostdin"] : []) + ["-loglevel", "error"] + input
                                     + ["-f", "s16le", "-c:a", "pcm_s16le", output.path], input: file.map { .file($0) } ?? .null)
        return try Data(contentsOf: output)
    }

    /// ffprobe's codec, rate and channels of a live stream, read as `format`: told the format, it
    /// does not wait for more of the stream to guess it (for an Icecast MP3 mount that took 4 s).
    private func probe(_ url: URL, format: String) async throws -> String {
        let result = try await ChildProcess.check("ffprobe", ["-v", "error", "-f", format, "-show_entries", "stream=codec_name,sample_rate,channels",
                                                              "-of", "default=noprint_wrappers=1", url.absoluteString])
        return result.stdout.split(separator: "\n").joined(separator: "|")
    }

    /// Connects to `server`, asks for its stream, reads until the body has `untilBody` bytes (or,
    /// when nil, until the server has logged the request), then looks once: "open N" when the
    /// connection is open with nothing more waiting, "closed N" or "more N" otherwise.
    private func probe(_ server: ICYStreamServer, untilBody: Int?) async throws -> String {
        let script = """
            import os, select, socket, sys, time
            port, wanted, log = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
            s = socket.create_connection(("127.0.0.1", port), timeout=60)
            s.sendall(b"GET /stream HTTP/1.0\\r\\nIcy-MetaData: 1\\r\\n\\r\\n")
            data = b""
            if wanted >= 0:
                while b"\\r\\n\\r\\n" not in data or len(data.split(b"\\r\\n\\r\\n", 1)[1]) < wanted:
                    chunk = s.recv(65536)
                    if not chunk:
                        break
                    data += chunk
            else:
                deadline = time.monotonic() + 60
                while not (os.path.exists(log) and open(log).read().strip()) and time.monotonic() < deadline:
                    time.sleep(0.05)
            body = len(data.split(b"\\r\\n\\r\\n", 1)[1]) if b"\\r\\n\\r\\n" in data else 0
            if not select.select([s], [], [], 0)[0]:
                print("open", body)
            else:
                print("closed" if not s.recv(65536) else "more", body)
            """
        let result = try await ChildProcess.check("python3", ["-c", script, String(server.port), String(untilBody ?? -1), server.logFile.path])
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

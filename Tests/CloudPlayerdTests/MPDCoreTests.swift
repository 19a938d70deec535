import Foundation
import Testing
import TestSupport

/// The MPD server's core families through real clients: `mpc` for playing, the volume, the
/// options and the queue; python-mpd2 (Tests/MPDTools) for command lists, idle, ACKs and the
/// password; a plain socket for the greeting and `status`'s fields.
@Suite(.timeLimit(.minutes(5)))
struct MPDCoreTests {
    @Test("greets as MPD 0.23.5 on TCP and the unix socket; ping and status answer with MPD's fields in MPD's order")
    func greetingAndStatus() async throws {
        let rig = try await MPDDaemonRig.start()
        let client = try rig.client()
        #expect(client.greeting == "OK MPD 0.23.5")
        #expect(try client.command("ping") == ["OK"])
        let status = try client.command("status")
        #expect(MPDSocketClient.fields(status).map(\.key) == ["volume", "repeat", "random", "single", "consume", "partition",
                                                                "playlist", "playlistlength", "mixrampdb", "state"])
        #expect(status.last == "OK")
        let local = try MPDSocketClient(path: rig.socket)
        #expect(local.greeting == "OK MPD 0.23.5")
        #expect(try local.command("ping") == ["OK"])
        var info = stat()
        #expect(stat(rig.socket, &info) == 0 && info.st_mode & 0o077 == 0, "the socket is its user's only")
        await rig.stop()
    }

    @Test("mpc: add, play, pause, seek, next, previous, volume, repeat, random, single, consume, move, delete, clear")
    func mpcFamilies() async throws {
        let rig = try await MPDDaemonRig.start()
        let long = try await Fixtures.shared.url(.longMP3).absoluteString
        let flac = try await Fixtures.shared.url(.longFLAC).absoluteString
        let opus = try await Fixtures.shared.url(.longOpus).absoluteString
        for url in [long, flac, opus] { #expect(try await rig.mpc("add", url).status == 0) }
        #expect(try await rig.mpc("playlist").stdout.split(separator: "\n").count == 3)
        #expect(try await rig.mpc("play").status == 0)
        #expect(try await rig.waitForStatus("state", "play"))
        #expect(try await rig.mpc("pause").stdout.contains("[paused]"))
        #expect(try await rig.mpc("seek", "0:30").status == 0)
        let elapsed = Double(MPDSocketClient.value("elapsed", in: try rig.client().command("status")) ?? "") ?? 0
        #expect(elapsed >= 29 && elapsed <= 31, "elapsed \(elapsed) after seek 0:30")
        #expect(try await rig.mpc("next").status == 0)
        #expect(MPDSocketClient.value("song", in: try rig.client().command("status")) == "1")
        #expect(try await rig.mpc("prev").status == 0)
        #expect(MPDSocketClient.value("song", in: try rig.client().command("status")) == "0")
        #expect(try await rig.mpc("volume", "40").status == 0)
        #expect(try rig.client().command("getvol").first == "volume: 40")
        for option in ["repeat", "random", "single"] { #expect(try await rig.mpc(option, "on").status == 0) }
        let options = try rig.client().command("status")
        #expect(MPDSocketClient.value("repeat", in: options) == "1")
        #expect(MPDSocketClient.value("random", in: options) == "1")
        #expect(MPDSocketClient.value("single", in: options) == "1")
        let consume = try await rig.mpc("consume", "on")
        #expect(consume.status != 0 && consume.stderr.contains("consume mode is not supported"), "\(consume.stderr)")
        let version = Int(MPDSocketClient.value("playlist", in: options) ?? "") ?? 0
        #expect(try await rig.mpc("move", "3", "1").status == 0)
        let moved = MPDSocketClient.fields(try rig.client().command("playlistinfo")).filter { $0.key == "file" }.map(\.value)
        #expect(moved == [opus, long, flac])
        let changes = MPDSocketClient.fields(try rig.client().command("plchangesposid \(version)"))
        #expect(changes.filter { $0.key == "cpos" }.map(\.value) == ["0", "1", "2"], "plchanges after a move: \(changes)")
        #expect(try await rig.mpc("del", "1").status == 0)
        #expect(try await rig.mpc("playlist").stdout.split(separator: "\n").count == 2)
        #expect(try await rig.mpc("clear").status == 0)
        #expect(MPDSocketClient.value("playlistlength", in: try rig.client().command("status")) == "0")
        await rig.stop()
    }

    @Test("a track that cannot play is status's error, naming it, until clearerror")
    func errorUntilCleared() async throws {
        let rig = try await MPDDaemonRig.start()
        let client = try rig.client()
        #expect(try client.command("add \"http://127.0.0.1:9/gone.mp3\"").last == "OK")
        #expect(try client.command("play 0").last == "OK")
        var error: String?
        #expect(try await eventually(within: 30) {
            error = MPDSocketClient.value("error", in: try client.command("status"))
            return error != nil
        })
        #expect(error?.hasPrefix("gone.mp3: ") == true, "\(String(describing: error))")
        #expect(try client.command("clearerror") == ["OK"])
        #expect(MPDSocketClient.value("error", in: try client.command("status")) == nil)
        await rig.stop()
    }

    @Test("python-mpd2: command lists, ACK formats, idle for each subsystem, noidle, password and permissions")
    func protocolDetails() async throws {
        let rig = try await MPDDaemonRig.start(password: "s3cret")
        let track = try await Fixtures.shared.url(.longMP3).absoluteString
        let result = try await rig.python("mpd_core_protocol.py", [track, "s3cret"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        await rig.stop()
        #expect(!rig.daemon.outputSoFar().contains("s3cret") && !rig.daemon.errorSoFar().contains("s3cret"), "the password is never logged")
    }

    @Test("mpc idle and idleloop see player, mixer and playlist changes")
    func mpcIdle() async throws {
        let rig = try await MPDDaemonRig.start()
        let idle = try ChildProcess("mpc", ["--host", "127.0.0.1", "--port", String(rig.port), "idle", "mixer"])
        // Once mpc idles, a volume change ends it.
        #expect(try await eventually(within: 30) {
            _ = try await rig.mpc("volume", "55")
            return idle.hasEnded
        })
        if !idle.hasEnded { idle.signal(SIGTERM) }
        #expect(await idle.wait().stdout.contains("mixer"))
        let loop = try ChildProcess("mpc", ["--host", "127.0.0.1", "--port", String(rig.port), "idleloop", "playlist", "player"])
        let url = try await Fixtures.shared.url(.longMP3).absoluteString
        #expect(try await eventually(within: 30) {
            _ = try await rig.mpc("add", url)
            return loop.outputSoFar().contains("playlist")
        })
        _ = try await rig.mpc("play")
        #expect(try await eventually(within: 30) { loop.outputSoFar().contains("player") })
        loop.signal(SIGTERM)
        _ = await loop.wait()
        await rig.stop()
    }
}

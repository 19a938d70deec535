import Foundation
import Testing
import TestSupport

/// The MPD port as another user of this machine attacks it: a second account (`cpd-stranger`)
/// connecting to the daemon's loopback port, as any local user can. The daemon tells it from the
/// owner by the kernel's word (the uid owning the client's socket), gives it nothing without the
/// password, never this machine's files or addresses even with it, and never lets it crowd out
/// the owner's own clients.
@Suite(.timeLimit(.minutes(5)), .enabled(if: StrangerAccount.available, "needs root: it makes a second user of this machine"))
struct MPDStrangerTests {
    /// `[mpd]` extras: a local source with a library of two songs.
    private static func library() async throws -> (extra: String, songs: [String]) {
        let music = try Fixtures.shared.scratchDirectory().appendingPathComponent("music")
        let tracks = try LibraryTree.write(into: music, artists: 1, albums: 1, tracks: 2, audio: try await LibraryTree.audio().bytes)
        return ("\n[[source]]\nname = \"music\"\ntype = \"local\"\npath = \"\(music.path)\"\n", tracks.map { "music/" + $0.path })
    }

    /// A file only the owner can read: 0600 in a 0700 folder of the daemon's scratch home.
    private static func privateFile(in rig: MPDDaemonRig) async throws -> URL {
        let folder = rig.home.appendingPathComponent("private")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let secret = folder.appendingPathComponent("secret.mp3")
        try FileManager.default.copyItem(at: try await Fixtures.shared.url(.cbrMP3), to: secret)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: secret.path)
        return secret
    }

    /// `lines` sent by the stranger (`mpd_raw.py`), with the password first if given; what it printed.
    private static func asStranger(_ rig: MPDDaemonRig, password: String?, _ lines: [String]) async throws -> [String] {
        let result = try await StrangerAccount.python("mpd_raw.py", ["--port", String(rig.port)] + lines,
                                                      environment: password.map { ["MPD_PASSWORD": $0] } ?? [:]).wait()
        return result.stdout.split(separator: "\n").map(String.init)
    }

    @Test("another user over TCP: each file, absolute path and address of this machine is Access denied, whether it exists or not, and nothing it named is queued or fetched; the library's songs it may add; the owner plays its own file over TCP and the unix socket")
    func noFilesOrAddressesForStrangers() async throws {
        let (extra, songs) = try await Self.library()
        let rig = try await MPDDaemonRig.start(password: "letmein", extra: extra)
        #expect(try await rig.mpc("update", "--wait").status == 0)
        let secret = try await Self.privateFile(in: rig)
        let listener = try await LoggingHTTPServer()
        let port = listener.port
        let refused = [
            "add \"file://\(secret.path)\"", "add \"file://\(secret.deletingLastPathComponent().path)/missing.mp3\"",
            "add \"\(secret.path)\"", "add /etc/shadow", "addid \"file:///etc/passwd\"",
            "add \"http://127.0.0.1:\(port)/x.mp3\"", "add \"http://localhost:\(port)/x.mp3\"", "add \"http://[::1]:\(port)/x.mp3\"",
            "add \"http://2130706433:\(port)/x.mp3\"", "add \"http://169.254.169.254/latest/meta-data/\"", "add \"https://10.1.2.3/x.mp3\"",
            "playlistadd mine \"file://\(secret.path)\"", "playlistadd mine \"http://127.0.0.1:\(port)/x.mp3\"",
        ]
        let answers = try await Self.asStranger(rig, password: "letmein", refused + ["add \"\(songs[0])\"", "playlistinfo"])
        #expect(answers.first == "OK MPD 0.23.5", "\(answers)")
        for (index, line) in refused.enumerated() {
            let command = String(line.prefix { $0 != " " })
            #expect(answers.dropFirst(1 + index).first == "ACK [4@0] {\(command)} Access denied", "\(line): \(answers)")
        }
        // The library's song is the library's, whoever names it: the one entry queued.
        #expect(answers.dropFirst(1 + refused.count).first == "OK", "\(answers)")
        let listed = answers.dropFirst(2 + refused.count).filter { $0.hasPrefix("file: ") }
        #expect(listed == ["file: \(songs[0])"], "\(answers)")
        let requests = try listener.requests()
        #expect(requests.isEmpty, "a stranger's URL was fetched: \(requests)")
        // The kernel said who it was.
        let (uid, _) = try await StrangerAccount.ids()
        #expect(rig.daemon.errorSoFar().contains("connected: uid \(uid)"), "\(rig.daemon.errorSoFar().suffix(2000))")

        // The owner's own clients, over TCP and over the unix socket, play the owner's file.
        for owner in [try rig.client(), try MPDSocketClient(path: rig.socket)] {
            #expect(try owner.command("password letmein") == ["OK"])
            #expect(try owner.command("clear") == ["OK"])
            #expect(try owner.command("add \"file://\(secret.path)\"") == ["OK"])
            #expect(try owner.command("play") == ["OK"])
            #expect(try await eventually(within: 30) { MPDSocketClient.value("state", in: try owner.command("status")) == "play" })
            #expect(try owner.command("stop") == ["OK"])
        }
        await listener.stop()
        await rig.stop()
    }

    @Test("another user without the password: nothing at all — no add, save, rm, update or status — and no file's existence told")
    func nothingWithoutThePassword() async throws {
        let rig = try await MPDDaemonRig.start(password: "letmein")
        let commands = ["add \"http://example.org/x.mp3\"", "add /etc/shadow", "save mine", "rm mine", "update", "status", "ping"]
        let answers = try await Self.asStranger(rig, password: nil, commands)
        #expect(answers == ["OK MPD 0.23.5"] + ["add", "add", "save", "rm", "update", "status"].map { "ACK [4@0] {\($0)} you don't have permission for \"\($0)\"" } + ["OK"],
                "\(answers)")
        await rig.stop()
    }

    @Test("with no password set, another user gets nothing, not everything; the owner still gets everything without one")
    func noPasswordIsNotOpenDoor() async throws {
        let rig = try await MPDDaemonRig.start()
        let answers = try await Self.asStranger(rig, password: nil, ["add \"http://example.org/x.mp3\"", "status"])
        #expect(answers == ["OK MPD 0.23.5", "ACK [4@0] {add} you don't have permission for \"add\"",
                            "ACK [4@0] {status} you don't have permission for \"status\""], "\(answers)")
        #expect(try rig.client().command("add \"http://example.org/x.mp3\"") == ["OK"])
        await rig.stop()
    }

    @Test("2,000 connections from another user: the owner's client and MPRIS answer meanwhile, the daemon's descriptors stay within max_connections and a margin, the journal says it once, and the strangers are closed after their silence")
    func connectionFlood() async throws {
        let rig = try await MPDDaemonRig.start()
        let before = try Self.descriptors(rig.daemon.pid)
        let flood = try await StrangerAccount.python("mpd_flood.py", ["--port", String(rig.port), "--count", "2000"])
        #expect(try await eventually(within: 120) { flood.outputSoFar().contains("opened 2000") || flood.hasEnded }, "\(flood.errorSoFar())")
        let opened = flood.outputSoFar().split(separator: "\n").first { $0.hasPrefix("opened") }.map(String.init) ?? ""
        // `opened 2000: greeted G, closed C`: no more than the strangers' seats were let in.
        let greeted = Int(opened.split(separator: " ").dropFirst(3).first?.dropLast() ?? "") ?? -1
        #expect((1...90).contains(greeted), "\(opened)")
        let during = try Self.descriptors(rig.daemon.pid)
        #expect(during - before <= 100 + 10, "descriptors \(before) before, \(during) during the flood")
        // The owner's own client has its seats, and the desktop's media keys their bus.
        #expect(try rig.client(timeout: 10).command("ping") == ["OK"])
        let status = try await rig.bus.run("busctl", ["--address=\(rig.bus.address)", "get-property", "org.mpris.MediaPlayer2.cloudplayerd",
                                                      "/org/mpris/MediaPlayer2", "org.mpris.MediaPlayer2.Player", "PlaybackStatus"])
        #expect(status.status == 0 && status.stdout.contains("Stopped"), "\(status.stderr)")
        // Let in to nothing, the strangers' connections are closed after their 10 s of silence.
        #expect(try await eventually(within: 90) { flood.outputSoFar().contains("all closed") }, "\(flood.outputSoFar().suffix(300))")
        let log = rig.daemon.errorSoFar()
        #expect(log.components(separatedBy: "Max connections reached").count - 1 == 1, "\(log.suffix(3000))")
        flood.signal(SIGKILL)
        _ = await flood.wait()
        await rig.stop()
    }

    /// The number of descriptors a process has open.
    static func descriptors(_ pid: pid_t) throws -> Int {
        try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count
    }
}

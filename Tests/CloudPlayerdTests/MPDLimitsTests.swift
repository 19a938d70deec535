import Foundation
import Testing
import TestSupport

/// What one MPD client may hold of the daemon, as MPD bounds it: memory for command lists and
/// for answers it does not read, time for silence and for guessing passwords, and work for a
/// queue edit or a client that has gone.
@Suite(.timeLimit(.minutes(5)))
struct MPDLimitsTests {
    @Test("30 connections each holding a command list of 2 MB of one-letter lines: the daemon grows by less than 100 MB; a list over max_command_list_size closes its client; before the password, 4 KiB does")
    func commandListMemory() async throws {
        let rig = try await MPDDaemonRig.start()
        let before = MPDBadInputTests.residentKiB(rig.daemon.pid)
        let list = Array("command_list_begin\n".utf8) + [UInt8](repeating: 0, count: 1_000_000 * 2).enumerated().map { $0.offset % 2 == 0 ? UInt8(ascii: "a") : 0x0A }
        var holders: [MPDSocketClient] = []
        for _ in 0..<30 {
            let holder = try rig.client()
            #expect(holder.send(bytes: list))
            holders.append(holder)
        }
        // Every byte taken by the server (nothing left in its sockets' queues): the lists are held.
        let drained = try await eventually(within: 60) { try Self.unread(byServerOn: rig.port, from: holders).allSatisfy { $0 == 0 } }
        let unread = try Self.unread(byServerOn: rig.port, from: holders)
        #expect(drained, "unread by the server: \(unread) \(rig.daemon.errorSoFar().suffix(3000))")
        let held = MPDBadInputTests.residentKiB(rig.daemon.pid)
        #expect(held - before < 100 * 1024, "30 lists of 2 MB took the daemon from \(before) to \(held) KiB")
        print("MPD command lists: RSS \(before) KiB before, \(held) KiB holding 30 lists of 1,000,000 lines")
        for holder in holders.prefix(3) {
            #expect(try holder.command("command_list_end") == ["ACK [5@0] {} unknown command \"a\""])
        }
        let over = try rig.client()
        over.send(bytes: list + Array(repeating: Array("a\n".utf8), count: 60_000).flatMap { $0 })
        #expect(try over.isClosed(), "a list over 2 MiB closes its client")
        #expect(try rig.client().command("ping") == ["OK"])
        await rig.stop()

        let guarded = try await MPDDaemonRig.start(password: "right")
        let stranger = try guarded.client()
        stranger.send(bytes: Array("command_list_begin\n".utf8) + Array(repeating: Array("ping\n".utf8), count: 1000).flatMap { $0 })
        #expect(try stranger.isClosed(), "a client not let in closes past 4 KiB of list")
        let friend = try guarded.client()
        #expect(try friend.command("password right") == ["OK"])
        friend.send(bytes: Array("command_list_begin\n".utf8) + Array(repeating: Array("ping\n".utf8), count: 1000).flatMap { $0 })
        #expect(try friend.command("command_list_end") == ["OK"], "let in, the same list is answered")
        await guarded.stop()
    }

    @Test("500 clients that ask listallinfo of 2,000 songs and read nothing: each holds less than max_output_buffer_size of the daemon, and the others are served")
    func nonReadersHoldLittle() async throws {
        let music = try Fixtures.shared.scratchDirectory().appendingPathComponent("music")
        _ = try LibraryTree.write(into: music, artists: 4, albums: 5, tracks: 100, audio: try await LibraryTree.audio().bytes)
        let rig = try await MPDDaemonRig.start(extra: "max_connections = 600\nmax_output_buffer_size = \"1 MiB\"\n[[source]]\nname = \"music\"\ntype = \"local\"\npath = \"\(music.path)\"\n")
        #expect(try await rig.mpc("update", "--wait").status == 0)
        let whole = try rig.client().command("listallinfo")
        #expect(whole.filter { $0.hasPrefix("file: ") }.count == 2000)
        let before = MPDBadInputTests.residentKiB(rig.daemon.pid)
        var readers: [MPDSocketClient] = []
        for _ in 0..<500 {
            let reader = try rig.client()
            var small: Int32 = 4096
            setsockopt(reader.fd, SOL_SOCKET, SO_RCVBUF, &small, socklen_t(MemoryLayout<Int32>.size))
            reader.send("listallinfo")
            readers.append(reader)
        }
        // Each has had its answer begun (its socket holds some), none has read a byte of it.
        #expect(try await eventually(within: 120) { try Self.received(byClientsOf: rig.port, readers).allSatisfy { $0 > 0 } })
        #expect(try rig.client().command("ping") == ["OK"], "others are served")
        let held = MPDBadInputTests.residentKiB(rig.daemon.pid)
        let each = (held - before) / 500
        #expect(each < 1024, "each non-reader holds \(each) KiB of the daemon (\(before) → \(held) KiB)")
        print("MPD non-readers: RSS \(before) KiB before, \(held) KiB with 500 unread listallinfo of 2,000 songs: \(each) KiB each")
        await rig.stop()
    }

    @Test("binarylimit is bounded by max_output_buffer_size as MPD bounds it")
    func binaryLimit() async throws {
        let rig = try await MPDDaemonRig.start()
        let client = try rig.client()
        #expect(try client.command("binarylimit 9223372036854775807") == ["ACK [2@0] {binarylimit} Number too large: 9223372036854775807"])
        #expect(try client.command("binarylimit \(8 * 1024 * 1024 - 4096 + 1)").first?.hasPrefix("ACK [2@0] {binarylimit} Number too large") == true)
        #expect(try client.command("binarylimit \(8 * 1024 * 1024 - 4096)") == ["OK"])
        #expect(try client.command("binarylimit 63") == ["ACK [2@0] {binarylimit} Value too small"])
        await rig.stop()
    }

    @Test("10,000 adds in one command list are one change of the queue: its version moves once, idle says playlist once, MPRIS says TrackListReplaced once (TrackAdded for a few)")
    func addsInAListAreOneChange() async throws {
        let rig = try await MPDDaemonRig.start()
        let monitor = try ChildProcess("dbus-monitor", ["--address", rig.bus.address, "type='signal',path='/org/mpris/MediaPlayer2'"])
        defer { monitor.signal(SIGTERM) }
        #expect(try await eventually(within: 30) { monitor.outputSoFar().contains("NameAcquired") })
        let client = try rig.client()
        let watcher = try rig.client()
        let version = Int(MPDSocketClient.value("playlist", in: try client.command("status")) ?? "") ?? -1
        let adds = (0..<10_000).map { "add \"https://music.example.org/album/\($0).mp3\"" }
        client.send(bytes: Array((["command_list_ok_begin"] + adds + ["command_list_end", ""]).joined(separator: "\n").utf8))
        var answer: [String] = []
        while let line = try client.readLine() {
            answer.append(line)
            if line == "OK" || line.hasPrefix("ACK") { break }
        }
        #expect(answer.count == 10_001 && answer.dropLast().allSatisfy { $0 == "list_OK" } && answer.last == "OK", "\(answer.suffix(3))")
        let status = try client.command("status")
        #expect(MPDSocketClient.value("playlistlength", in: status) == "10000")
        #expect(MPDSocketClient.value("playlist", in: status) == String(version + 1), "\(status)")
        #expect(try watcher.command("idle playlist") == ["changed: playlist", "OK"])
        // Each add said what it queued: the list's entries are the adds', in order.
        let first = try client.command("playlistinfo 0")
        let last = try client.command("playlistinfo 9999")
        #expect(MPDSocketClient.value("file", in: first) == "https://music.example.org/album/0.mp3")
        #expect(MPDSocketClient.value("file", in: last) == "https://music.example.org/album/9999.mp3")
        // MPRIS: the 10,000 in one TrackListReplaced; three more, each its TrackAdded.
        let few = (0..<3).map { "add \"https://music.example.org/few/\($0).mp3\"" }
        client.send(bytes: Array((["command_list_begin"] + few + ["command_list_end", ""]).joined(separator: "\n").utf8))
        #expect(try client.readAnswer() == ["OK"])
        #expect(try await eventually(within: 30) { monitor.outputSoFar().components(separatedBy: "member=TrackAdded").count - 1 == 3 },
                "\(monitor.outputSoFar().suffix(2000))")
        #expect(monitor.outputSoFar().components(separatedBy: "member=TrackListReplaced").count - 1 == 1)
        await rig.stop()
    }

    @Test("a client that sends a list of 20,000 adds and leaves without reading: what it sent is not carried out after it has gone")
    func goneClientsWorkIsDropped() async throws {
        let rig = try await MPDDaemonRig.start(password: "right")
        let leaver = try rig.client()
        #expect(try leaver.command("password right") == ["OK"])
        // Wrong passwords from this user (another connection) make its next attempt wait 6.4 s:
        // the list's `password` in the middle holds it there, the client leaves meanwhile — a
        // list that ran its course before the client could leave would show nothing. (3.2 s was
        // spent receiving and starting the list once, beside the suite's other tests.)
        let guesser = try rig.client()
        for _ in 0..<7 { #expect(try guesser.command("password wrong") == ["ACK [3@0] {password} incorrect password"]) }
        func adds(_ part: String) -> String { (0..<10_000).map { "add \"https://music.example.org/\(part)/\($0).mp3\"\n" }.joined() }
        leaver.send(bytes: Array(("command_list_begin\n" + adds("before") + "password right\n" + adds("after") + "command_list_end\n").utf8))
        // The whole list taken by the server (its socket's queue empty), it leaves at once: its
        // answers unread, the kernel resets the connection.
        let deadline = ContinuousClock.now + .seconds(60)
        while try Self.unread(byServerOn: rig.port, from: [leaver]) != [0] {
            try #require(ContinuousClock.now < deadline, "the server never read the whole list")
            try await Task.sleep(for: .milliseconds(1))
        }
        leaver.abort()
        #expect(try await eventually(within: 60) { rig.daemon.errorSoFar().contains(" gone:") }, "\(rig.daemon.errorSoFar().suffix(2000))")
        let checker = try rig.client()
        #expect(try checker.command("password right") == ["OK"])
        let length = Int(MPDSocketClient.value("playlistlength", in: try checker.command("status")) ?? "") ?? -1
        // The adds before the `password` are queued as it is carried out (MPD's order: a command
        // after adds sees them), which may be before the client left; none after it.
        #expect(length == 0 || length == 10_000, "\(length) of the 20,000 adds were carried out")
        if length > 0 {
            let last = try checker.command("playlistinfo \(length - 1)")
            #expect(MPDSocketClient.value("file", in: last) == "https://music.example.org/before/9999.mp3", "\(last)")
        }
        print("MPD gone client: \(length) of 20,000 adds carried out")
        await rig.stop()
    }

    @Test("a silent client is closed after connection_timeout; one waiting in idle is not")
    func silenceTimeout() async throws {
        let rig = try await MPDDaemonRig.start(extra: "connection_timeout = \"2s\"")
        let idler = try rig.client()
        idler.send("idle")
        let silent = try rig.client()
        #expect(try silent.isClosed(), "a silent client is closed")
        // Connected after the first was closed, a second silent one is closed by the time the
        // idler would have been, were idle silence.
        let later = try rig.client()
        #expect(try later.isClosed())
        #expect(try idler.command("noidle") == ["OK"], "the idler is still connected")
        await rig.stop()
    }

    @Test("wrong passwords are slowed down by who sends them, over one connection or four at once; the journal says a burst once")
    func passwordGuessing() async throws {
        let rig = try await MPDDaemonRig.start(password: "right")
        let guesser = try rig.client()
        let started = ContinuousClock.now
        for _ in 0..<5 {
            #expect(try guesser.command("password wrong") == ["ACK [3@0] {password} incorrect password"])
        }
        // 0.1 + 0.2 + 0.4 + 0.8 s at least before the fifth was compared.
        let sequential = ContinuousClock.now - started
        #expect(sequential >= .milliseconds(1500), "five wrong passwords took \(sequential)")
        #expect(try guesser.command("password right") == ["OK"])
        // Four at once over four connections, from a clean count: spaced all the same.
        let clients = try (0..<4).map { _ in try rig.client() }
        let parallel = ContinuousClock.now
        for client in clients { client.send("password wrong") }
        for client in clients { #expect(try client.readAnswer() == ["ACK [3@0] {password} incorrect password"]) }
        let together = ContinuousClock.now - parallel
        #expect(together >= .milliseconds(300), "four wrong passwords at once took \(together)")
        let log = rig.daemon.errorSoFar()
        #expect(log.components(separatedBy: "a wrong password from").count - 1 == 2, "\(log.suffix(3000))")
        #expect(log.contains("the right password from the daemon's own user, after 5 wrong passwords"), "\(log.suffix(3000))")
        print("MPD password guessing: 5 wrong in a row took \(sequential), 4 at once \(together)")
        await rig.stop()
    }

    /// The bytes each of `clients` has received and not read (their own sockets' receive queues).
    static func received(byClientsOf port: Int, _ clients: [MPDSocketClient]) throws -> [Int] {
        let rows = ProcFile.read("/proc/net/tcp").split(separator: "\n").dropFirst().map { $0.split(separator: " ") }
        let serverPort = ":" + hex(port)
        var queues: [String: Int] = [:]
        for fields in rows where fields.count > 4 && fields[2].hasSuffix(serverPort) {
            queues[String(fields[1].suffix(4))] = Int(fields[4].split(separator: ":")[1], radix: 16) ?? 0
        }
        return clients.map { client in queues[hex(Self.localPort(of: client))] ?? -1 }
    }

    static func localPort(of client: MPDSocketClient) -> Int {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(client.fd, $0, &length) } }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// A port as /proc/net/tcp prints it: four upper-case hex digits.
    static func hex(_ port: Int) -> String {
        let digits = String(port, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    /// The bytes the server has not read yet from each of `clients` (its sockets' receive queues,
    /// as /proc/net/tcp says them).
    static func unread(byServerOn port: Int, from clients: [MPDSocketClient]) throws -> [Int] {
        let table = ProcFile.read("/proc/net/tcp")
        return clients.map { client in
            let clientPort = ":" + Self.hex(Self.localPort(of: client))
            let serverPort = ":" + Self.hex(port)
            // The server's end: local address on the server's port, remote on the client's.
            for row in table.split(separator: "\n").dropFirst() {
                let fields = row.split(separator: " ")
                guard fields.count > 4, fields[1].hasSuffix(serverPort), fields[2].hasSuffix(clientPort) else { continue }
                return Int(fields[4].split(separator: ":")[1], radix: 16) ?? -1
            }
            return -1
        }
    }
}

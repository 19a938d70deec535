import Foundation
import Testing
import TestSupport

/// Clients that misbehave: each gets one clear answer (or is closed), and the daemon plays on
/// and serves everyone else.
@Suite(.timeLimit(.minutes(5)))
struct MPDBadInputTests {
    @Test("a line over the limit closes that client, so does junk; a bad argument is an ACK; others are served")
    func longLinesAndJunk() async throws {
        let rig = try await MPDDaemonRig.start()
        let bystander = try rig.client()
        let long = try rig.client()
        long.send(bytes: [UInt8](repeating: UInt8(ascii: "a"), count: 200_000))
        #expect(try long.isClosed(), "a 200 kB line without a newline closes the connection")
        let junk = try rig.client()
        junk.send(bytes: [0xFF, 0xFE, 0x00, 0x01, 0x80, 0x0A])
        #expect(try junk.isClosed(), "junk is closed unanswered, as MPD closes it")
        let quoted = try rig.client()
        #expect(try quoted.command("add \"\u{FFFD}\\").first?.hasPrefix("ACK [") == true)
        #expect(try quoted.command("ping") == ["OK"], "an argument error leaves the connection open")
        #expect(try bystander.command("ping") == ["OK"])
        #expect(rig.daemon.errorSoFar().contains("over 65536 bytes") || rig.daemon.outputSoFar().contains("over 65536 bytes"))
        await rig.stop()
    }

    @Test("a wrong password is ACK [3@0] and the client may try again; commands during idle close; a client gone mid-idle is forgotten")
    func passwordAndIdle() async throws {
        let rig = try await MPDDaemonRig.start(password: "right")
        let client = try rig.client()
        #expect(try client.command("password wrong") == ["ACK [3@0] {password} incorrect password"])
        #expect(try client.command("password right") == ["OK"])
        let idler = try rig.client()
        _ = try idler.command("password right")
        idler.send("idle")
        idler.send("status")
        #expect(try idler.isClosed(), "a command other than noidle during idle closes, as MPD does")
        for _ in 0..<20 {
            let gone = try rig.client()
            _ = try gone.command("password right")
            gone.send("idle player")
        }
        // The twenty closed with their idles waiting (their deinit closed the sockets).
        #expect(try client.command("setvol 20") == ["OK"])
        #expect(try client.command("ping") == ["OK"])
        await rig.stop()
    }

    @Test("1,000 idle clients are all woken by one change, and a client that never reads holds only its own connection")
    func manyIdleClientsAndANonReader() async throws {
        let rig = try await MPDDaemonRig.start(extra: "max_connections = 1100")
        var idlers: [MPDSocketClient] = []
        for _ in 0..<1000 {
            let idler = try rig.client(timeout: 60)
            idler.send("idle mixer")
            idlers.append(idler)
        }
        let control = try rig.client()
        // Each idler is known to the server from its greeting on: a change before its idle is
        // kept for it, so one change wakes all thousand whenever their idle arrives.
        #expect(try control.command("setvol 33") == ["OK"])
        var woken = 0
        for idler in idlers where try idler.readAnswer() == ["changed: mixer", "OK"] { woken += 1 }
        #expect(woken == 1000)

        // A queue of a few hundred entries, asked for again and again by a client that reads nothing.
        let url = try await Fixtures.shared.url(.longMP3).absoluteString
        let adds = Array(repeating: "add \"\(url)\"", count: 300)
        control.send(bytes: Array((["command_list_begin"] + adds + ["command_list_end", ""]).joined(separator: "\n").utf8))
        #expect(try control.readAnswer() == ["OK"])
        let rssBefore = Self.residentKiB(rig.daemon.pid)
        let hog = try rig.client()
        var sent = 0
        while sent < 10_000_000, hog.sendWithoutWaiting("playlistinfo") { sent += 1 }
        #expect(sent < 10_000_000, "the server went on reading from a client that reads nothing")
        #expect(try control.command("ping") == ["OK"], "another client is served while one reads nothing")
        #expect(MPDSocketClient.value("playlistlength", in: try control.command("status")) == "300")
        let rssAfter = Self.residentKiB(rig.daemon.pid)
        #expect(rssAfter - rssBefore < 64 * 1024, "the daemon grew by \(rssAfter - rssBefore) KiB for a client that reads nothing")
        print("MPD non-reader: RSS \(rssBefore) KiB before, \(rssAfter) KiB after \(sent) unread playlistinfo of 300 entries")
        await rig.stop()
    }

    /// VmRSS of a process, in KiB.
    static func residentKiB(_ pid: pid_t) -> Int {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }
}

import Foundation
import Model
import MPD
import Playback
import Testing

/// MPD's line syntax, answers and command table as values: what MPD's tokenizer takes and
/// refuses, the wire format of answers and ACKs, the argument checks, and the queue's reordering.
@Suite struct MPDProtocolTests {
    private func parse(_ line: String) throws -> MPDRequest {
        try MPDRequest.parse(Array(line.utf8))
    }

    @Test("quoted and unquoted arguments, backslash escapes, CRLF")
    func tokenizer() throws {
        #expect(try parse("ping") == MPDRequest(name: "ping"))
        #expect(try parse("add  \"a b\\\"c\\\\d\"  x\r") == MPDRequest(name: "add", arguments: ["a b\"c\\d", "x"]))
        #expect(try parse("find \"(artist == \\\"x\\\")\"") == MPDRequest(name: "find", arguments: ["(artist == \"x\")"]))
        #expect(try parse("setvol 50") == MPDRequest(name: "setvol", arguments: ["50"]))
    }

    @Test("what MPD's tokenizer refuses, with its messages; a line not starting with a lower-case letter closes unanswered")
    func refusals() {
        func refusal(_ line: [UInt8]) -> MPDRequest.Refusal? {
            do throws(MPDRequest.Refusal) {
                _ = try MPDRequest.parse(line)
                return nil
            } catch {
                return error
            }
        }
        #expect(refusal(Array("".utf8)) == MPDRequest.Refusal(error: nil, closes: true))
        #expect(refusal([0xFF, 0x41]) == MPDRequest.Refusal(error: nil, closes: true))
        #expect(refusal(Array("Ping".utf8)) == MPDRequest.Refusal(error: nil, closes: true))
        #expect(refusal(Array("pi-ng".utf8))?.closes == true)
        #expect(refusal(Array("add \"open".utf8)) == MPDRequest.Refusal(error: MPDError(.unknown, "Missing closing '\"'"), closes: false))
        #expect(refusal(Array("add \"a\"b".utf8))?.error?.message == "Space expected after closing '\"'")
        #expect(refusal(Array("add a\"b".utf8))?.error?.message == "Invalid unquoted character")
    }

    @Test("answers: key: value lines without stray newlines, binary chunks, ACK lines, seconds with three decimals")
    func answers() {
        var response = MPDResponse()
        response.field("Title", "two\nlines")
        response.field("Pos", 3)
        response.field("elapsed", seconds: 12.3456)
        response.binary([1, 2, 3])
        #expect(response.take() == Array("Title: two lines\nPos: 3\nelapsed: 12.346\nbinary: 3\n".utf8) + [1, 2, 3, 0x0A])
        #expect(MPDError(.argument, "bad\nthing").ack(index: 2, command: "add") == "ACK [2@2] {add} bad thing\n")
        #expect(MPDResponse.seconds(0) == "0.000")
        #expect(MPDResponse.seconds(.nan) == "0.000")
    }

    @Test("the command table: no name in two families; argument counts and permissions as MPD checks them")
    func table() throws {
        #expect(MPDCommandTable.duplicates.isEmpty)
        #expect(throws: MPDError.unknownCommand("nope")) { try MPDCommandTable.command(for: MPDRequest(name: "nope"), permissions: .all) }
        #expect(throws: MPDError.wrongArgumentCount("status")) {
            try MPDCommandTable.command(for: MPDRequest(name: "status", arguments: ["x"]), permissions: .all)
        }
        #expect(throws: MPDError.tooManyArguments("add")) {
            try MPDCommandTable.command(for: MPDRequest(name: "add", arguments: ["a", "1", "x"]), permissions: .all)
        }
        #expect(throws: MPDError.permission("play")) { try MPDCommandTable.command(for: MPDRequest(name: "play"), permissions: [.read]) }
        _ = try MPDCommandTable.command(for: MPDRequest(name: "ping"), permissions: .none)
        _ = try MPDCommandTable.command(for: MPDRequest(name: "password", arguments: ["x"]), permissions: .none)
    }

    @Test("addresses: host:port, [v6]:port, paths; loopback or not")
    func addresses() {
        #expect(MPDAddress("127.0.0.1:6600") == .tcp(host: "127.0.0.1", port: 6600))
        #expect(MPDAddress("[::1]:6600") == .tcp(host: "::1", port: 6600))
        #expect(MPDAddress("/run/user/1000/mpd.socket") == .unix(path: "/run/user/1000/mpd.socket"))
        #expect(MPDAddress("::1:6600") == nil)
        #expect(MPDAddress("host:0") == nil)
        #expect(MPDAddress("127.0.0.1:6600")?.isLocal == true)
        #expect(MPDAddress("[::1]:6600")?.isLocal == true)
        #expect(MPDAddress("0.0.0.0:6600")?.isLocal == false)
        #expect(MPDAddress("192.168.1.2:6600")?.isLocal == false)
    }

    @Test("the queue's version moves with each change; plchanges marks entries added or moved")
    func queueVersions() {
        var state = MPDState()
        var snapshot = PlayerSnapshot()
        let items = (0..<3).map { QueueItem(location: TrackLocation(url: URL(string: "https://example.org/\($0).mp3")!)) }
        snapshot.queue.add(items)
        state.follow(snapshot)
        let added = state.queueVersion
        let ids = snapshot.queue.entries.map(\.id)
        snapshot.queue.move(ids[2], to: 0)
        state.follow(snapshot)
        #expect(state.queueVersion == added + 1)
        #expect(snapshot.queue.entries.map(\.id) == [ids[2], ids[0], ids[1]])
        #expect(ids.map { state.entryVersions[$0] } == [added + 1, added + 1, added + 1])
        state.follow(snapshot)
        #expect(state.queueVersion == added + 1, "the same entries: no new version")
    }

    @Test("idle: a change wakes a waiting idle, is kept for one not yet idle, and noidle ends an idle with nothing")
    func idleHub() async {
        let hub = MPDIdleHub()
        hub.register(1)
        hub.notify([.mixer])
        #expect(await hub.wait(1, for: [.mixer]) == [.mixer])
        async let woken = hub.wait(1, for: [.player])
        while !hub.isWaiting(1) { await Task.yield() }
        hub.notify([.mixer, .player])
        #expect(await woken == [.player])
        async let cancelled = hub.wait(1, for: [.database])
        while !hub.isWaiting(1) { await Task.yield() }
        hub.cancel(1)
        #expect(await cancelled == [])
        hub.unregister(1)
        #expect(hub.count == 0)
    }
}

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
        #expect(MPDAddress("127.0.0.1:6600")?.isPlainlyReachable == false)
        #expect(MPDAddress("[::1]:6600")?.isPlainlyReachable == false)
        #expect(MPDAddress("0.0.0.0:6600")?.isPlainlyReachable == true)
        #expect(MPDAddress("192.168.1.2:6600")?.isPlainlyReachable == true)
        // A name is told by what it resolves to when it is bound, not by its text.
        #expect(MPDAddress("127.lan.example:6600")?.isPlainlyReachable == false)
        #expect(MPDAddress("localhost:6600")?.isPlainlyReachable == false)
    }

    @Test("the queue's version moves with each change; plchanges marks entries from where each change began")
    func queueVersions() {
        var state = MPDState()
        var snapshot = PlayerSnapshot()
        let items = (0..<3).map { QueueItem(location: TrackLocation(url: URL(string: "https://example.org/\($0).mp3")!)) }
        let insert = snapshot.queue.insert(items)
        state.follow(snapshot, edit: insert)
        let added = Int(state.queueVersion)
        let ids = snapshot.queue.entries.map(\.id)
        #expect(state.firstChange(since: added - 1) == 0)
        #expect(state.firstChange(since: added) == 3, "nothing changed since")
        // Two more appended: only they changed.
        let append = snapshot.queue.insert(Array(items.prefix(2)))
        state.follow(snapshot, edit: append)
        #expect(state.firstChange(since: added) == 3)
        let move = snapshot.queue.move(ids[2], to: 1)
        state.follow(snapshot, edit: move)
        #expect(Int(state.queueVersion) == added + 2)
        #expect(snapshot.queue.entries.prefix(3).map(\.id) == [ids[0], ids[2], ids[1]])
        #expect(state.firstChange(since: added + 1) == 1, "the move began at position 1")
        state.follow(snapshot)
        #expect(Int(state.queueVersion) == added + 2, "the same entries: no new version")
        // A command's answer first (no edit known), then the two events it spans: position 0
        // until both have said where they began, then the lesser.
        let before = Int(state.queueVersion)
        let first = snapshot.queue.insert(Array(items.prefix(1)), at: .end)
        let firstRevision = snapshot.queue.revision
        let second = snapshot.queue.move(ids[1], to: 4)
        state.follow(snapshot)
        #expect(state.firstChange(since: before) == 0)
        state.place(first, of: firstRevision)
        #expect(state.firstChange(since: before) == 0, "one of the two edits is still to say")
        state.place(second!, of: snapshot.queue.revision)
        #expect(state.firstChange(since: before) == min(first.from, second!.from))
        #expect(state.firstChange(since: -1) == 0, "a version from before any: everything")
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
        // `noidle` read before the idle's wait ran (its task not started yet): the wait ends at once.
        hub.expect(1)
        hub.cancel(1)
        #expect(await hub.wait(1, for: [.database]) == [])
        // A `noidle` after an idle already answered leaves the next idle waiting as it should.
        hub.cancel(1)
        async let next = hub.wait(1, for: [.options])
        while !hub.isWaiting(1) { await Task.yield() }
        hub.notify([.options])
        #expect(await next == [.options])
        hub.unregister(1)
        #expect(hub.count == 0)
    }
}

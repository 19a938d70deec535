import Foundation
import Testing
import TestSupport

/// Answers the protocol fixes, compared with a real MPD 0.23 (Debian's `mpd`) playing the same
/// file: the field names and their order in `status` and `currentsong`. cloudplayerd may leave
/// out a field it does not know (a file outside the library has no `Last-Modified`), never add
/// one MPD does not have or put them in another order.
@Suite(.timeLimit(.minutes(4)))
struct MPDCompareTests {
    /// A real MPD over a folder holding `file`.
    static func realMPD(serving file: URL) async throws -> (port: Int, server: ServerProcess) {
        let music = try Fixtures.shared.scratchDirectory().appendingPathComponent("music")
        try FileManager.default.createDirectory(at: music, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: file, to: music.appendingPathComponent(file.lastPathComponent))
        return try await MPDReferenceServer.start(music: music)
    }

    /// The keys of an answer, in order.
    static func keys(_ lines: [String]) -> [String] { MPDSocketClient.fields(lines).map(\.key) }

    /// Whether `ours` is `theirs` with some keys left out: the same keys in the same order.
    static func isSubsequence(_ ours: [String], of theirs: [String]) -> Bool {
        var rest = theirs[...]
        for key in ours {
            guard let index = rest.firstIndex(of: key) else { return false }
            rest = rest[(index + 1)...]
        }
        return true
    }

    @Test("status (stopped and playing) and currentsong: MPD 0.23's field names in its order")
    func statusAndCurrentSong() async throws {
        let file = try await Fixtures.shared.url(.longFLAC)
        let (port, server) = try await Self.realMPD(serving: file)
        let theirs = try MPDSocketClient(port: port)
        let rig = try await MPDDaemonRig.start()
        let ours = try rig.client()

        #expect(Self.keys(try ours.command("status")) == Self.keys(try theirs.command("status")), "stopped status")
        for client in [theirs, ours] {
            #expect(try client.command("add \"\(client === theirs ? file.lastPathComponent : file.absoluteString)\"").last == "OK")
            #expect(try client.command("play 0").last == "OK")
        }
        #expect(try await eventually(within: 30) { MPDSocketClient.value("audio", in: try theirs.command("status")) != nil })
        #expect(try await eventually(within: 30) { MPDSocketClient.value("audio", in: try ours.command("status")) != nil })
        let theirStatus = Self.keys(try theirs.command("status"))
        let ourStatus = Self.keys(try ours.command("status"))
        #expect(ourStatus == theirStatus, "playing status: ours \(ourStatus), MPD's \(theirStatus)")
        let theirSong = Self.keys(try theirs.command("currentsong"))
        let ourSong = Self.keys(try ours.command("currentsong"))
        #expect(Self.isSubsequence(ourSong, of: theirSong), "currentsong: ours \(ourSong), MPD's \(theirSong)")
        #expect(Set(theirSong).subtracting(ourSong).isSubset(of: ["Last-Modified"]), "currentsong: ours \(ourSong), MPD's \(theirSong)")
        for key in ["Pos", "Id", "Time", "duration", "file"] { #expect(ourSong.contains(key)) }
        print("MPD currentsong: MPD \(theirSong); cloudplayerd \(ourSong)")
        await rig.stop()
        await server.stop()
    }
}

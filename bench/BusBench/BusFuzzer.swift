import DBus
import Foundation
import TestSupport

/// Sends a player random and malformed method calls: members with wrong signatures, unknown
/// members, interfaces and paths, odd values and huge arrays — on every interface it exports.
/// Calls that would rightly stop playback (Quit, Stop, Pause, Next…) are only ever sent with a
/// wrong signature, so a player that survives is still playing afterwards.
struct BusFuzzer {
    static let objects = ["/org/mpris/MediaPlayer2", "/org/cloudplayerd/Manager1", "/", "/org/mpris", "/org/cloudplayerd/Manager1/x"]
    static let interfaces = [
        "org.mpris.MediaPlayer2", "org.mpris.MediaPlayer2.Player", "org.mpris.MediaPlayer2.TrackList",
        "org.mpris.MediaPlayer2.Playlists", "org.cloudplayerd.Manager1", "org.freedesktop.DBus.Properties",
        "org.freedesktop.DBus.Introspectable", "org.freedesktop.DBus.Peer", "org.example.Nothing",
    ]
    /// Members that change what plays: sent only with arguments that cannot match.
    static let disruptive: Set<String> = [
        "Quit", "Stop", "Pause", "PlayPause", "Next", "Previous", "Seek", "SetPosition", "OpenUri", "AddTrack",
        "RemoveTrack", "GoTo", "ActivatePlaylist", "QueueClear", "QueuePlay", "QueueAdd", "PlaylistPlay", "CacheClear",
        "Reload", "Scan", "Set",
    ]
    static let members = [
        "Raise", "Play", "Get", "GetAll", "Introspect", "Ping", "GetMachineId", "GetTracksMetadata", "GetPlaylists",
        "Status", "ScanStatus", "ListTracks", "Search", "QueueList", "PlaylistList", "PlaylistShow", "PlaylistCreate",
        "PlaylistDelete", "PlaylistAdd", "PlaylistRemove", "Sources", "CacheStats", "CacheShow", "CachePin", "CacheUnpin",
        "Nope", "", "x",
    ] + disruptive.sorted()

    var generator: MutationGenerator

    /// One call: where, what, and arguments (never a matching signature for a disruptive member).
    mutating func nextCall() -> (path: String, interface: String, member: String, arguments: [BusValue]) {
        let member = pick(Self.members)
        var arguments = (0..<Int.random(in: 0...4, using: &generator)).map { _ in argument() }
        if Self.disruptive.contains(member) {
            // No real signature of these starts with a double (Set's is ssv; Seek's x): it cannot match.
            arguments.insert(.double(.nan), at: 0)
        }
        return (pick(Self.objects), pick(Self.interfaces), member, arguments)
    }

    private mutating func pick<T>(_ choices: [T]) -> T {
        choices[Int.random(in: 0..<choices.count, using: &generator)]
    }

    private mutating func argument() -> BusValue {
        switch Int.random(in: 0..<12, using: &generator) {
        case 0: return .string(text())
        case 1: return .uint32(UInt32.random(in: 0...UInt32.max, using: &generator))
        case 2: return .int64(Int64.random(in: Int64.min...Int64.max, using: &generator))
        case 3: return .double(pick([0, -1, 1e308, -.infinity, .nan, 0.5]))
        case 4: return .bool(Bool.random(using: &generator))
        case 5: return .objectPath(pick(["/", "/org/cloudplayerd/track/1", "/org/mpris/MediaPlayer2/TrackList/NoTrack", "/a/b/c"]))
        // Huge, but under the bus's message limit (a bus drops a client that goes over it).
        case 6: return (0..<pick([0, 1, 3, 50])).map { _ in text() }.busValue
        case 7: return Array(repeating: Int64(-1), count: pick([0, 1, 100_000, 500_000])).busValue
        case 8: return (0..<pick([0, 2, 10_000])).map { BusObjectPath("/org/cloudplayerd/track/\($0)") }.busValue
        case 9: return .record((0..<pick([0, 1, 500])).map { ("k\($0)", .string(text())) })
        case 10: return Array(repeating: "/nonexistent/\(pick(["a.mp3", "x"]))", count: pick([1000, 100_000])).busValue
        default: return .int32(Int32.random(in: Int32.min...Int32.max, using: &generator))
        }
    }

    private mutating func text() -> String {
        pick(["", "x", "Playlist", "None", "file:///nonexistent.mp3", "http://127.0.0.1:1/a.mp3", "1", "-1", "99999999999",
              String(repeating: "é", count: 5_000), "../../etc/passwd", "\u{1}\u{7f}", "Alphabetical", "org.mpris.MediaPlayer2.Player"])
    }
}

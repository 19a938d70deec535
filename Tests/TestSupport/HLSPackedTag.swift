import Foundation

/// A packed-audio segment's ID3 tag as mutagen reads it: a reader of what hls_packed.py writes
/// by hand other than the player's own — its version, the PRIV timestamp's owner and PTS, and
/// TPE1 and TIT2 when there.
public struct HLSPackedTag: Decodable, Sendable, CustomStringConvertible {
    public let version: [Int]
    public let owner: String
    public let pts: Int
    public let artist: String?
    public let title: String?

    public var description: String { "ID3v\(version) \(owner) pts \(pts) \(artist ?? "-") / \(title ?? "-")" }

    /// The tags of `files`, in order.
    public static func read(_ files: [URL]) async throws -> [HLSPackedTag] {
        let script = """
            import json, sys
            from mutagen.id3 import ID3
            tags = []
            for path in sys.argv[1:]:
                tag = ID3(path)
                priv = tag.getall("PRIV")[0]
                text = lambda name: str(tag[name]) if name in tag else None
                tags.append({"version": list(tag.version), "owner": priv.owner, "pts": int.from_bytes(priv.data, "big"),
                             "artist": text("TPE1"), "title": text("TIT2")})
            print(json.dumps(tags))
            """
        let result = try await ChildProcess.check("python3", ["-c", script] + files.map(\.path))
        return try JSONDecoder().decode([HLSPackedTag].self, from: Data(result.stdout.utf8))
    }
}

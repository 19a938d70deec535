import Foundation

/// One live mount as Icecast's `/status-json.xsl` describes it. Icecast lists only mounts a
/// source feeds now; `icestats.source` is one object when there is one such mount, a list when
/// there are more, and absent when there is none.
public struct IcecastMount: Sendable, Equatable, CustomStringConvertible {
    /// The path, "/stream.mp3" (from `listenurl`).
    public let mount: String
    /// The current song: for MP3 what the admin API (or ezstream) last set; for Ogg Vorbis the
    /// link's TITLE comment.
    public let title: String?
    /// Ogg Vorbis only: the link's ARTIST comment (an MP3 title holds the artist itself).
    public let artist: String?
    /// `server_name`, `server_type` (the Content-Type listeners get), `genre`.
    public let name: String?
    public let contentType: String?
    public let genre: String?
    public let listeners: Int

    public var description: String {
        "\(mount) (\(contentType ?? "?")) title \(title.map { "\"\($0)\"" } ?? "none")"
            + (artist.map { " artist \"\($0)\"" } ?? "") + ", \(listeners) listeners"
    }

    /// The mounts in a `/status-json.xsl` answer.
    public static func parse(status: String) throws -> [IcecastMount] {
        guard let object = try? JSONSerialization.jsonObject(with: Data(status.utf8)) as? [String: Any],
              let stats = object["icestats"] as? [String: Any] else {
            throw TestSupportError("Icecast's status is not the JSON it should be: \(status.prefix(500))")
        }
        let sources: [[String: Any]]
        switch stats["source"] {
        case let one as [String: Any]: sources = [one]
        case let many as [[String: Any]]: sources = many
        default: sources = []
        }
        return sources.compactMap { source in
            guard let listenURL = (source["listenurl"] as? String).flatMap(URL.init(string:)) else { return nil }
            func text(_ key: String) -> String? {
                switch source[key] {
                case let string as String: string
                case let number as NSNumber: number.stringValue
                default: nil
                }
            }
            return IcecastMount(mount: listenURL.path, title: text("title"), artist: text("artist"), name: text("server_name"),
                                contentType: text("server_type"), genre: text("genre"),
                                listeners: (source["listeners"] as? Int) ?? 0)
        }
    }
}

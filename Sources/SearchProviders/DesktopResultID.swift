import DBus

/// What a desktop search result names, as its id travels on the bus and comes back to be shown
/// or played: `track:ID`, `album:ID` and `artist:ID` (the album or artist of library track ID),
/// `playlist:ID`. Numbers only: no name to escape, and no id longer than a few bytes.
package struct DesktopResultID: Sendable, Hashable, CustomStringConvertible {
    package enum Kind: String, Sendable, CaseIterable {
        case artist, album, track, playlist
    }

    package var kind: Kind
    package var number: Int64

    package init(_ kind: Kind, _ number: Int64) {
        self.kind = kind
        self.number = number
    }

    /// The id a client sent back, or nil if it is not one of ours.
    package init?(_ text: String) {
        guard text.utf8.count <= 40, let colon = text.firstIndex(of: ":"), let kind = Kind(rawValue: String(text[..<colon])),
              let number = Int64(text[text.index(after: colon)...]), number > 0 else { return nil }
        self.init(kind, number)
    }

    package var description: String { "\(kind.rawValue):\(number)" }

    /// The id as a client sent it, parsed, or the error a bad one gets.
    static func parse(_ text: String) throws -> DesktopResultID {
        guard let id = DesktopResultID(text) else {
            throw BusCallError.invalidArguments("'\(text.prefix(80))' is not a result of cloudplayerd's search")
        }
        return id
    }
}

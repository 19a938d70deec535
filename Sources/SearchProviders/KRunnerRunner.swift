import Base
import DBus

/// `org.kde.krunner1`, as KRunner (and Plasma's launcher search) calls a D-Bus runner: the
/// query typed, the actions a match may offer, and the match chosen with an action or none.
/// The same results as GNOME Shell's (`DesktopSearch`), told KRunner's way.
package enum KRunnerRunner {
    package static let interface = "org.kde.krunner1"
    package static let path = "/org/cloudplayerd/KRunner"

    package static let match = BusMethod<String, [KRunnerMatch]>("Match", arguments: ["query"], answer: "matches")
    package static let actions = BusMethod<[KRunnerAction]>("Actions", answer: "actions")
    package static let run = BusMethod<String, String, BusNothing>("Run", arguments: ["matchId", "actionId"])

    /// The one action beside choosing a match (which plays it): add its tracks to the queue.
    package static let queueAction = KRunnerAction(id: "queue", text: "Add to the queue", icon: "list-add")

    /// KRunner's match types (`KRunner::QueryMatch::Type`): a name typed whole is exact.
    static let exactMatch: Int32 = 100
    static let possibleMatch: Int32 = 30

    static func busInterface(_ search: DesktopSearch) -> BusInterface {
        let interface = BusInterface(Self.interface)
        interface.method(match) { query in
            let results = try await search.results(for: [query])
            return results.enumerated().map { index, result in Self.shown(result, query: query, rank: index, of: results.count) }
        }
        interface.method(actions) { () in [Self.queueAction] }
        interface.method(run) { matchID, actionID in
            switch actionID {
            case "": try await search.play(matchID)
            case Self.queueAction.id: try await search.queue(matchID)
            default: throw BusCallError.invalidArguments("there is no action '\(actionID.prefix(80))'; there is '\(Self.queueAction.id)'")
            }
            return BusNothing()
        }
        return interface
    }

    /// A result as KRunner shows it: relevance falls with the result's place (artists first, as
    /// GNOME Shell orders them), a name typed whole is an exact match; playlists offer no
    /// queueing (they are played whole).
    static func shown(_ result: DesktopResult, query: String, rank: Int, of count: Int) -> KRunnerMatch {
        let typed = query.trimmingWhitespace().lowercased()
        let exact = result.name.lowercased() == typed
        let relevance = exact ? 1 : 0.9 - 0.5 * Double(rank) / Double(max(count, 1))
        var properties: [(String, BusValue)] = [("subtext", .string(result.detail)), ("category", .string(category(result.id.kind)))]
        if result.id.kind != .playlist { properties.append(("actions", .array(element: "s", [.string(queueAction.id)]))) }
        return KRunnerMatch(id: result.id.description, text: result.name, icon: icon(result.id.kind),
                            type: exact ? exactMatch : possibleMatch, relevance: relevance, properties: BusFields(properties))
    }

    /// A themed icon per kind (KRunner names an icon; it takes no file).
    static func icon(_ kind: DesktopResultID.Kind) -> String {
        switch kind {
        case .artist: "view-media-artist"
        case .album: "media-optical-audio"
        case .track: "audio-x-generic"
        case .playlist: "view-media-playlist"
        }
    }

    static func category(_ kind: DesktopResultID.Kind) -> String {
        switch kind {
        case .artist: "Artists"
        case .album: "Albums"
        case .track: "Tracks"
        case .playlist: "Playlists"
        }
    }
}

/// A KRunner match, `(sssida{sv})`: id, text, icon name, match type, relevance, properties
/// (`subtext`, `category`, `actions`).
package struct KRunnerMatch: BusType, Equatable {
    package static let busSignature = "(sssida{sv})"
    package var id: String
    package var text: String
    package var icon: String
    package var type: Int32
    package var relevance: Double
    package var properties: BusFields

    package init(id: String, text: String, icon: String, type: Int32, relevance: Double, properties: BusFields) {
        (self.id, self.text, self.icon, self.type, self.relevance, self.properties) = (id, text, icon, type, relevance, properties)
    }

    package init?(busValue: BusValue) {
        guard case .structure(let fields) = busValue, fields.count == 6, case .string(let id) = fields[0],
              case .string(let text) = fields[1], case .string(let icon) = fields[2], case .int32(let type) = fields[3],
              case .double(let relevance) = fields[4], let properties = BusFields(busValue: fields[5]) else { return nil }
        self.init(id: id, text: text, icon: icon, type: type, relevance: relevance, properties: properties)
    }

    package var busValue: BusValue {
        .structure([.string(id), .string(text), .string(icon), .int32(type), .double(relevance), properties.busValue])
    }
}

/// A KRunner action, `(sss)`: id, text, icon name.
package struct KRunnerAction: BusType, Equatable {
    package static let busSignature = "(sss)"
    package var id: String
    package var text: String
    package var icon: String

    package init(id: String, text: String, icon: String) {
        (self.id, self.text, self.icon) = (id, text, icon)
    }

    package init?(busValue: BusValue) {
        guard case .structure(let fields) = busValue, fields.count == 3, case .string(let id) = fields[0],
              case .string(let text) = fields[1], case .string(let icon) = fields[2] else { return nil }
        self.init(id: id, text: text, icon: icon)
    }

    package var busValue: BusValue { .structure([.string(id), .string(text), .string(icon)]) }
}

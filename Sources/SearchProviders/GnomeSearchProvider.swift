import DBus
import Logging

/// `org.gnome.Shell.SearchProvider2`, as GNOME Shell calls it from its overview: the terms
/// typed (again at each key stroke: a subsearch is answered by searching afresh, so results the
/// first answer's bound left out can still come), what to show of each result, and the result
/// chosen. Described once here, for the daemon and the tests' introspection check alike.
package enum GnomeSearchProvider {
    package static let interface = "org.gnome.Shell.SearchProvider2"
    package static let path = "/org/cloudplayerd/SearchProvider"

    package static let getInitialResultSet = BusMethod<[String], [String]>("GetInitialResultSet", arguments: ["terms"], answer: "results")
    package static let getSubsearchResultSet = BusMethod<[String], [String], [String]>(
        "GetSubsearchResultSet", arguments: ["previous_results", "terms"], answer: "results")
    package static let getResultMetas = BusMethod<[String], [BusFields]>("GetResultMetas", arguments: ["identifiers"], answer: "metas")
    package static let activateResult = BusMethod<String, [String], UInt32, BusNothing>(
        "ActivateResult", arguments: ["identifier", "terms", "timestamp"])
    package static let launchSearch = BusMethod<[String], UInt32, BusNothing>("LaunchSearch", arguments: ["terms", "timestamp"])

    /// The icon of a result without a cover: the app's own (its .desktop file's `Icon`).
    static let appIcon = "audio-x-generic"

    /// The interface over `search`; each method's work waits on the library, off the bus thread.
    static func busInterface(_ search: DesktopSearch) -> BusInterface {
        let interface = BusInterface(Self.interface)
        interface.method(getInitialResultSet) { terms in try await search.results(for: terms).map(\.id.description) }
        interface.method(getSubsearchResultSet) { _, terms in try await search.results(for: terms).map(\.id.description) }
        interface.method(getResultMetas) { ids in try await search.describe(ids).map(Self.meta) }
        interface.method(activateResult) { id, _, _ in
            try await search.play(id)
            return BusNothing()
        }
        // The shell asks the app to show its own search of these terms; there is no window to
        // show it in, and starting to play what was not chosen would surprise: nothing happens.
        interface.method(launchSearch) { _, _ in
            search.logger.debug("LaunchSearch asked: cloudplayerd has no window to search in")
            return BusNothing()
        }
        return interface
    }

    /// A result as GNOME Shell reads it: `id`, `name`, `description`, and `gicon` — a
    /// `g_icon_new_for_string` text: the cover file's path, or a themed icon's name.
    static func meta(_ result: DesktopResult) -> BusFields {
        BusFields([("id", .string(result.id.description)), ("name", .string(result.name)),
                   ("description", .string(result.detail)), ("gicon", .string(result.coverPath ?? appIcon))])
    }
}

import Library

/// The music database: browsing folders (`lsinfo`, `listfiles`, `listall`, `listallinfo`),
/// queries (`find`, `search`, their `add`s, `list`, `count`) and scans (`update`, `rescan`).
/// Everything comes from the library's indexes, long answers page by page with `flush()`, so
/// `listallinfo` of 100k tracks never holds the library in memory.
package enum DatabaseCommands: MPDCommandFamily {
    package static let commands: [String: MPDCommand] = [
        "lsinfo": MPDCommand(.read, arguments: 0...1) { call in try await lsinfo(&call) },
        "listfiles": MPDCommand(.read, arguments: 0...1) { call in try await listfiles(&call) },
        "listall": MPDCommand(.read, arguments: 0...1) { call in try await listall(&call, info: false) },
        "listallinfo": MPDCommand(.read, arguments: 0...1) { call in try await listall(&call, info: true) },
        "find": MPDCommand(.read, atLeast: 1) { call in try await find(&call, search: false) },
        "search": MPDCommand(.read, atLeast: 1) { call in try await find(&call, search: true) },
        "findadd": MPDCommand(.add, atLeast: 1) { call in try await findadd(&call, search: false) },
        "searchadd": MPDCommand(.add, atLeast: 1) { call in try await findadd(&call, search: true) },
        "list": MPDCommand(.read, atLeast: 1) { call in try await list(&call) },
        "count": MPDCommand(.read, atLeast: 1) { call in try await count(&call) },
        "update": MPDCommand(.admin, arguments: 0...1) { call in try await update(&call) },
        "rescan": MPDCommand(.admin, arguments: 0...1) { call in try await update(&call) },
    ]

    /// The library database, or MPD's answer when the daemon has none.
    static func libraryDatabase(_ call: MPDCall) throws(MPDError) -> MPDLibraryDatabase {
        guard let database = call.context.library as? MPDLibraryDatabase else { throw MPDError(.noExist, "No database") }
        return database
    }

    /// A filter's refusal as MPD's `ACK [2@n]`.
    static func filtering<T>(_ parse: () throws(FilterError) -> T) throws(MPDError) -> T {
        do {
            return try parse()
        } catch {
            throw MPDError(.argument, error.message)
        }
    }
}

/// `update [URI]` and `rescan [URI]`: a scan of the sources (the one URI's first directory
/// names, or all), in the background as Manager1's `Scan`; the answer is MPD's
/// `updating_db: JOB`, and `idle` says `update` as it starts and `update` and `database` as it
/// ends (the library's change stream). The library reads a file's tags again only when the
/// server says it changed, so `rescan` is `update`.
extension DatabaseCommands {
    static func update(_ call: inout MPDCall) async throws {
        let database = try libraryDatabase(call)
        let paths = await database.paths
        var names = await database.scannableSources()
        if let uri = call.argument(0), !isRoot(uri) {
            let first = String(uri.drop { $0 == "/" }.prefix { $0 != "/" })
            guard names.contains(first), paths.folderLocation(ofPath: uri) != nil else { throw MPDError(.argument, "Malformed path") }
            names = [first]
        }
        guard !names.isEmpty else { throw MPDError(.noExist, "No source to scan") }
        guard let job = await database.startScan(names) else { throw MPDError(.updateAlready, "Update already running") }
        call.response.field("updating_db", job)
    }
}

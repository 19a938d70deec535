/// Commands of MPD features this server does not have — neighbours, mounts, stickers, the
/// config's reading — answered as MPD 0.23 answers them when the feature is not configured, so a
/// client that probes for one (Cantata asks `listmounts`, M.A.L.P. `sticker`) gets the answer it
/// knows how to take, not `unknown command`. As in MPD, `commands` does not list `sticker` and
/// `listneighbors`, so no client uses them.
package enum AbsentFeatures: MPDCommandFamily {
    package static let commands: [String: MPDCommand] = [
        // The root is the only mount: no storage plugin mounts anything.
        "listmounts": MPDCommand(.read) { call in call.response.field("mount", "") },
        "listneighbors": MPDCommand(.read) { _ in throw MPDError(.unknown, "No neighbor plugin configured") }.unlisted,
        "mount": MPDCommand(.admin, arguments: 2...2) { _ in throw MPDError(.noExist, "Mounting storage is not supported") },
        "unmount": MPDCommand(.admin, arguments: 1...1) { _ in throw MPDError(.argument, "Not a mount point") },
        "sticker": MPDCommand(.admin, atLeast: 3) { _ in throw MPDError(.unknown, "sticker database is disabled") }.unlisted,
        // MPD tells its music directory to a client of its unix socket; there is no one music
        // directory here (each source is a folder of the root), and a stranger is told nothing.
        "config": MPDCommand(.admin) { call in
            guard call.session.peer.isOwner else { throw MPDError(.permission, "Command only permitted to local clients") }
            throw MPDError(.noExist, "No music directory: each source is a folder of the root")
        },
    ]
}

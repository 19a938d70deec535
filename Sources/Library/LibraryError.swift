/// Why the library could not do what was asked. Messages are one line, for the CLI and the log.
package enum LibraryError: Error, CustomStringConvertible, Equatable {
    /// The database was written by a newer cloudplayerd: it is left untouched.
    case newerDatabase(path: String)
    case cannotOpen(path: String, reason: String)
    /// SQLite says the file is damaged: it is set aside and a new library made.
    case damaged(path: String, reason: String)
    case noSuchSource(String)
    case noSuchPlaylist(String)
    case noSuchTrack(String)
    /// A playlist name that is taken, or not allowed.
    case badPlaylistName(String)
    /// Only the user's own playlists can be edited.
    case notEditable(String)

    package var description: String {
        switch self {
        case .newerDatabase(let path):
            "the library \(path) was written by a newer cloudplayerd; it is left as it is (upgrade, or move it away)"
        case .cannotOpen(let path, let reason): "cannot open the library \(path): \(reason)"
        case .damaged(let path, let reason): "the library \(path) is damaged: \(reason)"
        case .noSuchSource(let name): "no source named '\(name)' in the config file"
        case .noSuchPlaylist(let name): "no playlist '\(name)'"
        case .noSuchTrack(let name): "no track '\(name)' in the library"
        case .badPlaylistName(let reason): reason
        case .notEditable(let name): "'\(name)' is not one of your own playlists; only those can be edited"
        }
    }
}

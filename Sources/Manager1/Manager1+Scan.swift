import DBus

extension Manager1 {
    /// The scan under way, if any, and the reports of the last one.
    package struct ScanStatus: BusRecord, Equatable {
        package var running: Bool
        package var source: String?
        package var foldersDone: UInt32?
        package var foldersFound: UInt32?
        /// Folders the source's last finished scan listed (none: its first scan).
        package var foldersBefore: UInt32?
        package var tracks: UInt32?
        package var tagsRead: UInt32?
        package var bytes: Int64?
        package var reports: [ScanReport]

        package init(running: Bool, reports: [ScanReport]) {
            self.running = running
            self.reports = reports
        }
    }

    /// What a scan of one source did.
    package struct ScanReport: BusRecord, Equatable {
        package var source: String
        package var folders: UInt32
        package var tracks: UInt32
        package var tagsRead: UInt32
        package var gone: UInt32
        package var playlists: UInt32
        /// Bytes fetched to read tags.
        package var bytes: Int64
        package var failed: Bool
        package var problems: [String]

        package init(source: String, folders: UInt32, tracks: UInt32, tagsRead: UInt32, gone: UInt32, playlists: UInt32,
                     bytes: Int64, failed: Bool, problems: [String]) {
            self.source = source
            self.folders = folders
            self.tracks = tracks
            self.tagsRead = tagsRead
            self.gone = gone
            self.playlists = playlists
            self.bytes = bytes
            self.failed = failed
            self.problems = problems
        }
    }
}

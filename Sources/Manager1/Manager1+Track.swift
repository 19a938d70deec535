import DBus

extension Manager1 {
    /// A track as listings show it: the library's, or — for a playlist line no scan has found —
    /// only its location and title.
    package struct Track: BusRecord, Equatable {
        package var id: Int64?
        /// Its location, never with credentials.
        package var url: String
        package var title: String
        package var source: String?
        package var gone: Bool?
        package var artist: String?
        package var album: String?
        package var albumArtist: String?
        package var genre: String?
        package var codec: String?
        /// Why its tags could not be read.
        package var problem: String?
        package var track: Int32?
        package var disc: Int32?
        package var year: Int32?
        package var duration: Double?
        /// A feed episode's date, in seconds since 1970.
        package var published: Int64?
        /// Where a long track was left; set when it was heard to the end.
        package var resumeAt: Double?
        package var played: Bool?

        package init(url: String, title: String) {
            self.url = url
            self.title = title
        }
    }

    /// One entry of the queue, in queue order.
    package struct QueuedTrack: BusRecord, Equatable {
        package var index: UInt32
        package var url: String
        package var title: String
        package var current: Bool
        package var artist: String?
        package var duration: Double?
        /// How much of it could play offline: full, partial or none.
        package var cached: String?

        package init(index: UInt32, url: String, title: String, current: Bool, artist: String? = nil, duration: Double? = nil) {
            self.index = index
            self.url = url
            self.title = title
            self.current = current
            self.artist = artist
            self.duration = duration
        }
    }
}

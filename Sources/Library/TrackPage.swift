/// A page of a long answer (`listallinfo`, a `find` of the whole library), and where the next
/// one starts: streamed page by page, never the whole library in memory.
package struct TrackPage: Sendable {
    package var tracks: [LibraryTrack]
    /// Nil after the last page.
    package var next: TrackCursor?

    package init(tracks: [LibraryTrack], next: TrackCursor?) {
        self.tracks = tracks
        self.next = next
    }
}

/// Where a page starts. In database order (folder, then location) the last row's key: the next
/// page is read from the index after it, however deep. In another order, an offset. For what a
/// filter found by its own index, the ids of the tracks still to come, in their order.
package enum TrackCursor: Sendable, Equatable {
    case after(folder: String, url: String)
    case offset(Int)
    case ids(ArraySlice<Int64>)
}

/// `count`'s answer for one group (or for all, with no group).
package struct TagCount: Sendable, Equatable {
    /// The group's value; nil for the tracks without the tag, and with no group.
    package var group: String?
    package var songs: Int
    /// Seconds.
    package var playtime: Double

    package init(group: String?, songs: Int, playtime: Double) {
        self.group = group
        self.songs = songs
        self.playtime = playtime
    }
}

/// `stats`' database lines.
package struct LibraryStats: Sendable, Equatable {
    package var artists: Int
    package var albums: Int
    package var songs: Int
    /// Seconds.
    package var playtime: Double
    /// The last scan's end, of any source.
    package var updated: Double?
}

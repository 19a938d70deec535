import Foundation
import Library
import Testing
import TestSupport

/// Rescans: what a scan reads again, and what it must not take from what it read before.
extension LibraryScanTests {
    @Test("a tree of 250 folders and 2000 tagged files: every track with its tags; a rescan reads none again; changes, deletions and additions are found")
    func scanAndRescan() async throws {
        try await Rig.with { rig in
            let (audio, seconds) = try await LibraryTree.audio()
            let tracks = try LibraryTree.write(into: rig.server.root, artists: 50, albums: 4, tracks: 10, audio: audio)
            #expect(tracks.count == 2000)

            let first = try #require(await rig.scan().first)
            #expect(!first.failed)
            #expect(first.problems.isEmpty, "\(first.problems.prefix(3))")
            #expect(first.folders == 1 + 50 + 200)
            #expect(first.tracks == 2000)
            #expect(first.tagsRead == 2000)
            #expect(first.playlists == 200, "each album folder is a playlist")

            // Tags as written, for a sample; the duration from the Info header.
            for track in [tracks[0], tracks[777], tracks[1999]] {
                let url = rig.url(track.path)
                let known = try #require(try await rig.library.track(at: rig.location(url)), "\(track.path)")
                #expect(known.title == track.title)
                #expect(known.artist == track.artist)
                #expect(known.album == track.album)
                #expect(known.trackNumber == track.number)
                #expect(known.codec == "MP3")
                #expect(abs((known.duration ?? 0) - seconds) < 0.0001, "exact, from the Info header")
            }
            let byArtist = try await rig.library.tracks(TrackFilter(artist: "Artist 07"), limit: 100)
            #expect(byArtist.count == 40)
            #expect(byArtist.map(\.trackNumber) == (0..<4).flatMap { _ in Array(1...10) }, "ordered by album, then track number")
            let found = try await rig.library.search("song a13 t05")
            #expect(Set(found.compactMap(\.title)) == ["Song A13 B1 T05", "Song A13 B2 T05", "Song A13 B3 T05", "Song A13 B4 T05"])
            #expect(try await rig.library.search("café", limit: 1000).count == 500, "album words are searched, accents and all")
            #expect(try await rig.library.search("a13 b2 t0").count == 9, "the last word may be the start of one (T01–T09)")
            #expect(try await rig.library.search("a1 b2").isEmpty, "the others must be whole words")
            #expect(try await rig.library.search(#"AND "NEAR( * OR"#).isEmpty, "FTS5 syntax in a query is only words")

            // A rescan asks only for listings: not one GET.
            rig.proxy.clearLog()
            let second = try #require(await rig.scan().first)
            #expect(second.tracks == 2000 && second.tagsRead == 0 && second.gone == 0)
            #expect(rig.proxy.log.filter { $0.method == "GET" }.isEmpty)

            // One file retagged, one deleted, one added.
            let changed = tracks[10], deleted = tracks[20]
            try Data(LibraryTree.id3v2(title: "Renamed Song", artist: changed.artist, album: changed.album, track: changed.number) + audio)
                .write(to: rig.server.root.appendingPathComponent(changed.path))
            try FileManager.default.removeItem(at: rig.server.root.appendingPathComponent(deleted.path))
            try rig.publish(Data(LibraryTree.id3v2(title: "Brand New", artist: "Artist 99", album: "Fresh", track: 1) + audio),
                            at: "Artist 01/Album 2/99 new.mp3")
            let third = try #require(await rig.scan().first)
            #expect(third.tagsRead == 2)
            #expect(third.gone == 1)
            #expect(third.tracks == 2000)
            #expect(try await rig.library.search("renamed").map(\.title) == ["Renamed Song"])
            #expect(try await rig.library.search(changed.title).isEmpty, "its old title left the search index")
            #expect(try await rig.library.search("brand new").count == 1)
            let goneURL = rig.url(deleted.path)
            #expect(try await rig.library.track(at: rig.location(goneURL))?.gone == true, "a vanished track is marked gone, not dropped")
            #expect(try await rig.library.search(deleted.title).isEmpty, "and not offered by search")
        }
    }

    /// The loader kept the file's resource from the first scan (nothing opened after it dropped
    /// it as idle) and used it again for the listing's new version: the old bytes, the old tags.
    /// In the big tree this happened only when the changed file was among the last read.
    @Test("a file rewritten right after a scan read it: the next scan reads its new tags, not the cached bytes")
    func rewrittenRightAfterItWasRead() async throws {
        try await Rig.with { rig in
            let (audio, _) = try await LibraryTree.audio()
            let tracks = try LibraryTree.write(into: rig.server.root, artists: 1, albums: 1, tracks: 2, audio: audio)
            let first = try #require(await rig.scan().first)
            #expect(first.tagsRead == 2)
            let changed = tracks[0]
            try Data(LibraryTree.id3v2(title: "Renamed Song", artist: changed.artist, album: changed.album, track: changed.number) + audio)
                .write(to: rig.server.root.appendingPathComponent(changed.path))
            let second = try #require(await rig.scan().first)
            #expect(second.tagsRead == 1)
            #expect(try await rig.library.search("renamed").map(\.title) == ["Renamed Song"])
            #expect(try await rig.library.search(changed.title).isEmpty, "its old title left the search index")
        }
    }
}

import Foundation
import Library
import SQLite
import Testing
import TestSupport

/// Folders as the MPD server browses them (`lsinfo`, `listall`): a folder's subfolders, its own
/// tracks, and every track under it, paged.
@Suite struct LibraryBrowseTests {
    static var odd: [[String: any SQLiteConvertible]] { [
        // A folder whose name sorts before '/' and '0' (a space, a parenthesis), beside its
        // namesake; a folder spelled without its last '/'; a gone track.
        ["url": SyntheticLibrary.root + "Odd/A%20(Live)/x.mp3", "source": "synth", "folder": SyntheticLibrary.root + "Odd/A%20(Live)/"],
        ["url": SyntheticLibrary.root + "Odd/A/y.mp3", "source": "synth", "folder": SyntheticLibrary.root + "Odd/A/"],
        ["url": SyntheticLibrary.root + "Odd/A/Deeper/z.mp3", "source": "synth", "folder": SyntheticLibrary.root + "Odd/A/Deeper/"],
        ["url": SyntheticLibrary.root + "Odd/B/w.mp3", "source": "synth", "folder": SyntheticLibrary.root + "Odd/B"],
        ["url": SyntheticLibrary.root + "Odd/-/v.mp3", "source": "synth", "folder": SyntheticLibrary.root + "Odd/-/"],
        ["url": SyntheticLibrary.root + "Odd/Gone/u.mp3", "source": "synth", "folder": SyntheticLibrary.root + "Odd/Gone/", "gone": true],
        ["url": SyntheticLibrary.root + "top.mp3", "source": "synth", "folder": SyntheticLibrary.root],
    ] }

    @Test("a folder's subfolders and tracks, from the scan's folders: names that sort before '/' included, gone tracks not")
    func folders() async throws {
        let (library, _) = try await SyntheticLibrary.make(count: 2000, extra: Self.odd)
        let root = SyntheticLibrary.root
        let top = try await library.subfolders(of: root)
        #expect(top == (0..<20).map { SyntheticLibrary.folder(artist: $0) } + [root + "Odd/"])
        #expect(try await library.subfolders(of: String(root.dropLast())) == top, "with or without its last '/'")
        #expect(try await library.subfolders(of: SyntheticLibrary.folder(artist: 3)) == (0..<10).map { SyntheticLibrary.folder(artist: 3, album: $0) })
        let odd = try await library.subfolders(of: root + "Odd/")
        #expect(odd == ["-/", "A%20(Live)/", "A/", "B/"].map { root + "Odd/" + $0 }, "in the binary order of the spelled names ('%' before '/')")
        #expect(try await library.subfolders(of: root + "Odd/A/") == [root + "Odd/A/Deeper/"])
        #expect(try await library.subfolders(of: root + "Odd/B/").isEmpty)
        #expect(try await library.tracks(directlyIn: root + "Odd/B/").map(\.url) == [root + "Odd/B/w.mp3"])
        #expect(try await library.tracks(directlyIn: root).map(\.url) == [root + "top.mp3"])
        #expect(try await library.tracks(directlyIn: root + "Odd/Gone/").isEmpty)
        #expect(try await library.hasTracks(under: root + "Odd/A"))
        #expect(!(try await library.hasTracks(under: root + "Odd/Gone/")))
        #expect(!(try await library.hasTracks(under: root + "Od")), "a prefix of a name is no folder")
        let album = try await library.tracks(directlyIn: SyntheticLibrary.folder(artist: 3, album: 2))
        #expect(album.map(\.trackNumber) == Array(1...10).map(Optional.some))
    }

    @Test("every track under a folder, in pages read by key: each once, in database order")
    func pages() async throws {
        let (library, _) = try await SyntheticLibrary.make(count: 2000, extra: Self.odd)
        var cursor: TrackCursor?, seen: [LibraryTrack] = [], pages = 0
        repeat {
            let page = try await library.tracks(under: SyntheticLibrary.root, from: cursor, limit: 300)
            seen += page.tracks
            cursor = page.next
            pages += 1
            #expect(page.tracks.count <= 300)
        } while cursor != nil
        #expect(seen.count == 2006 && pages == 7)
        #expect(Set(seen.map(\.url)).count == seen.count)
        let keys = seen.map { [$0.folder, $0.url] }
        #expect(keys == keys.sorted { $0.lexicographicallyPrecedes($1) }, "folder, then location, as SQLite compares text")
        let artist = try await library.tracks(under: SyntheticLibrary.folder(artist: 7), from: nil, limit: 1000)
        #expect(artist.tracks.count == 100 && artist.next == nil)
    }
}

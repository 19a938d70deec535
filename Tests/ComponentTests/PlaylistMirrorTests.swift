import Foundation
import Library
import Testing

/// The user's playlists as M3U files: safe file names whatever the playlist is called, and the
/// text read back as it was written.
@Suite struct PlaylistMirrorTests {
    @Test("file names have no path separators, control characters or leading dot, stay short, never collide, never hold a URL")
    func fileNames() {
        let names = ["Road / Trip", "Road _ Trip", "..", ".hidden", "a\\b", "tab\there", String(repeating: "ä", count: 300),
                     "https://anna:secret@cloud.example.org/list", "Favourites"]
        let files = names.map(PlaylistMirror.fileName(for:))
        #expect(Set(files).count == names.count, "\(files)")
        for file in files {
            #expect(file.hasSuffix(".m3u") && !file.hasPrefix("."))
            #expect(!file.contains("/") && !file.contains("\\") && !file.contains("\t"))
            #expect(file.utf8.count <= 200)
        }
        #expect(PlaylistMirror.fileName(for: "Favourites") == "Favourites.m3u")
        #expect(!files[7].contains("secret") && !files[7].contains("anna"))
    }

    @Test("an M3U file reads back the name, the id, the offline keep, the locations and their titles it was written with",
          arguments: [(Int64(7), true), (nil, false)])
    func roundTrip(id: Int64?, pinned: Bool) {
        let entries = [PlaylistEntry(url: "file:///music/a%20b.mp3", title: "A, with a comma"),
                       PlaylistEntry(url: "https://cloud.example.org/dav/c.opus", title: nil)]
        let playlist = PlaylistMirror.Playlist(name: "Road / Trip", id: id, pinned: pinned, entries: entries)
        let text = PlaylistMirror.m3u(playlist)
        #expect(PlaylistMirror.parse(text, fallbackName: "ignored") == playlist)
        // Other players read it as a plain M3U: our lines are comments.
        #expect(text.split(separator: "\n").filter { !$0.hasPrefix("#") } == entries.map { Substring($0.url) })
    }
}

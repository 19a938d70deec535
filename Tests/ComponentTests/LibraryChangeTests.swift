import Foundation
import Library
import Loader
import Model
import Testing
import TestSupport

/// What a scan tells those who show the library (MPD's idle `database`), and the folders' cover
/// files MPD's `albumart` sends, asked of the source once — against rclone behind the fault
/// proxy, whose log is what the daemon asked.
@Suite(.timeLimit(.minutes(3)))
struct LibraryChangeTests {
    typealias Rig = LibraryScanTests.Rig

    @Test("a scan ends saying whether it changed the library: new, unchanged, gone, back")
    func scanSaysWhetherItChanged() async throws {
        try await Rig.with { rig in
            let (audio, _) = try await LibraryTree.audio()
            let song = Data(LibraryTree.id3v2(title: "One", artist: "A", album: "B", track: 1) + audio)
            let file = rig.server.root.appendingPathComponent("album/one.mp3")
            // A date in whole seconds, which the file can be given again exactly.
            let modified = Date(timeIntervalSince1970: 1_600_000_000)
            try rig.publish(song, at: "album/one.mp3")
            try FileManager.default.setAttributes([.modificationDate: modified], ofItemAtPath: file.path)
            var changes = rig.library.changes().makeAsyncIterator()
            func finished() async -> Bool? {
                while let change = await changes.next() {
                    if case .scanFinished(let changed) = change { return changed }
                }
                return nil
            }
            let first = try #require(await rig.scan().first)
            #expect(first.changed == 1 && first.gone == 0 && first.libraryChanged)
            #expect(await finished() == true)

            let again = try #require(await rig.scan().first)
            #expect(again.tracks == 1 && again.changed == 0 && !again.libraryChanged)
            #expect(await finished() == false)

            try FileManager.default.removeItem(at: file)
            let lost = try #require(await rig.scan().first)
            #expect(lost.gone == 1 && lost.changed == 0 && lost.libraryChanged)
            #expect(await finished() == true)

            // Back as it was (its date too, so the server's ETag is the one the library kept):
            // only seen again, and still a change.
            try rig.publish(song, at: "album/one.mp3")
            try FileManager.default.setAttributes([.modificationDate: modified], ofItemAtPath: file.path)
            let back = try #require(await rig.scan().first)
            #expect(back.changed == 1 && back.tagsRead == 0 && back.libraryChanged, "\(back)")
            #expect(await finished() == true)
        }
    }

    @Test("a folder's cover file is asked of the source once, found or not; a scan forgets what was found")
    func folderCoversAskedOnce() async throws {
        try await Rig.with { rig in
            let (audio, _) = try await LibraryTree.audio()
            try rig.publish(Data(audio), at: "bare/one.mp3")
            try rig.publish(Data(audio), at: "covered/one.mp3")
            let picture = Data([0xFF, 0xD8, 0xFF, 0xE0] + [UInt8](repeating: 7, count: 300))
            try rig.publish(picture, at: "covered/cover.jpg")
            let bare = rig.location(rig.url("bare/one.mp3")), covered = rig.location(rig.url("covered/one.mp3"))
            func asked(_ folder: String) -> [String] {
                rig.proxy.log.filter { $0.method == "GET" && $0.path.contains("/\(folder)/cover.") }.map(\.path)
            }

            #expect(await rig.loader.folderArtwork(of: bare) == nil)
            #expect(asked("bare").count == 4, "cover.png, .jpg, .tiff, .bmp: \(asked("bare"))")
            let file = try #require(await rig.loader.folderArtwork(of: covered))
            #expect(try Data(contentsOf: file) == picture)
            #expect(asked("covered").count == 2, "cover.png, then cover.jpg: \(asked("covered"))")

            // Again, for another song of each folder or the next chunk: nothing asked.
            #expect(await rig.loader.folderArtwork(of: bare) == nil)
            #expect(await rig.loader.folderArtwork(of: covered) == file)
            #expect(asked("bare").count == 4 && asked("covered").count == 2)

            // A scan (how the user says the folders changed) forgets: the new cover is found.
            try rig.publish(picture, at: "bare/cover.png")
            _ = await rig.scan()
            #expect(await rig.loader.folderArtwork(of: bare) != nil)
            #expect(asked("bare").count == 5)
        }
    }
}

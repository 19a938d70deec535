import ComponentTestSupport
import Model
import Parsers
import Testing
import TestSupport

/// Tags behind a big cover, as taggers write them (the picture first): a scan skips the picture
/// by its size; playing reads it with one ranged read. Over a file seen only through ranged reads.
struct TagReaderCoverTests {
    static let cover = LibraryTree.cover()

    private func file(_ layout: LibraryTree.TagLayout, padding: Int = 0) async throws -> VirtualFile {
        let audio = try await LibraryTree.audio().bytes
        return VirtualFile(LibraryTree.id3v2(title: "Covered", artist: "Artist", album: "Album", track: 4, cover: Self.cover,
                                             layout: layout, padding: padding) + audio)
    }

    @Test("a scan skips a 2 MB cover that comes first: the head, 4 KiB after the picture and the last 128 bytes",
          arguments: LibraryTree.TagLayout.allCases)
    func scanSkipsTheCover(_ layout: LibraryTree.TagLayout) async throws {
        let file = try await file(layout, padding: 1000)
        let scanned = try await TagReader.read(length: file.length, pictures: false) { try file.fetch($0) }
        #expect(scanned.tags == TrackTags(title: "Covered", artist: "Artist", album: "Album", trackNumber: 4), "\(layout)")
        #expect(scanned.duration.map { abs($0 - 1) < 0.1 } == true, "\(layout): \(scanned.duration ?? -1)")
        #expect(file.fetchedBytes <= TagReader.headSize + 8 * 1024 + 128 + 4, "\(layout): \(file.fetchedBytes) bytes in \(file.requests)")
        // At most a 4-byte probe inside the picture, where a plain size's syncsafe reading lands.
        let picture = 16 * 1024..<(Int64(Self.cover.count) - 4096)
        #expect(!file.requests.contains { $0.overlaps(picture) && $0.count > 4 }, "\(layout): \(file.requests)")
    }

    @Test("playing reads the cover too, in one ranged read of the picture", arguments: LibraryTree.TagLayout.allCases)
    func playingReadsTheCover(_ layout: LibraryTree.TagLayout) async throws {
        let file = try await file(layout)
        let scanned = try await TagReader.read(length: file.length) { try file.fetch($0) }
        #expect(scanned.tags.title == "Covered" && scanned.tags.trackNumber == 4, "\(layout)")
        #expect(scanned.tags.artwork == Artwork(data: Self.cover, mimeType: "image/jpeg"), "\(layout)")
        // Head, the rest of the tag and the first frames, ID3v1; a plain size is first tried as
        // syncsafe, which reads a part of the picture before the whole.
        #expect(file.requests.count == (layout == .v24PlainSizes ? 4 : 3), "\(layout): \(file.requests)")
        #expect(file.fetchedBytes <= Self.cover.count + 8 * 1024 + 128)
    }

    @Test("a v2.4 frame size written plain by old iTunes whose syncsafe reading is impossible, and one that lands on no frame")
    func plainSizesAreFound() async throws {
        // 0x001F0000 bytes: both readings valid, the syncsafe one lands inside the picture.
        let ambiguous = try await file(.v24PlainSizes)
        #expect(try await TagReader.read(length: ambiguous.length, pictures: false) { try ambiguous.fetch($0) }.tags.title == "Covered")
        // 2,000,014 bytes (0x001E848E): bytes of 0x80 and more, no syncsafe number, so plain.
        let audio = try await LibraryTree.audio().bytes
        let bigger = VirtualFile(LibraryTree.id3v2(title: "Plain", artist: "A", album: "B", track: 1, cover: LibraryTree.cover(size: 2_000_000),
                                                   layout: .v24PlainSizes) + audio)
        let scanned = try await TagReader.read(length: bigger.length, pictures: false) { try bigger.fetch($0) }
        #expect(scanned.tags.title == "Plain" && bigger.fetchedBytes <= TagReader.headSize + 8 * 1024 + 128 + 4, "\(bigger.requests)")
    }

    @Test("a v2.3 tag unsynchronised as a whole (its frame sizes are no file offsets) is read on, tags and picture right")
    func wholeTagUnsynchronisation() async throws {
        let audio = try await LibraryTree.audio().bytes
        let picture = LibraryTree.cover(size: 100_000)
        let tag = LibraryTree.id3v2(title: "Unsynced", artist: "A", album: "B", track: 2, cover: picture)
        // Unsynchronise the frames: a zero after every 0xFF; the header's size then counts the escapes.
        var body: [UInt8] = []
        for byte in tag.dropFirst(10) {
            body.append(byte)
            if byte == 0xFF { body.append(0) }
        }
        let size = body.count
        let header = Array("ID3".utf8) + [3, 0, 0x80] + [UInt8(size >> 21 & 0x7F), UInt8(size >> 14 & 0x7F), UInt8(size >> 7 & 0x7F), UInt8(size & 0x7F)]
        let file = VirtualFile(header + body + audio)
        let scanned = try await TagReader.read(length: file.length) { try file.fetch($0) }
        #expect(scanned.tags.title == "Unsynced" && scanned.tags.trackNumber == 2)
        #expect(scanned.tags.artwork?.data == picture)
        #expect(scanned.duration.map { abs($0 - 1) < 0.1 } == true)
    }
}

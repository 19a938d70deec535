import Foundation

/// An M4B audiobook with chapters, as ffmpeg's `ipod` muxer writes it: AAC, the chapters both as a
/// QuickTime chapter track (iTunes' way) and as Nero's `chpl` box — or only one of them, the
/// other box renamed `free` (which every reader skips).
public enum AudiobookFixture {
    public enum Lists: String, CaseIterable, Sendable {
        case both, quickTimeOnly, neroOnly
    }

    /// A tone `length` seconds long, titled "The Book" by "An Author", with `chapters` (start in
    /// seconds, title), in a new scratch directory. With `pictures` (image files, one per chapter
    /// in order), a QuickTime chapter picture track too (`Tests/MediaFixtures/chapter_images.py`):
    /// each shown from its chapter's start to the next's.
    public static func make(chapters: [(start: Double, title: String)], length: Double, lists: Lists = .both,
                            name: String = "book.m4b", pictures: [URL] = []) async throws -> URL {
        let directory = try Fixtures.shared.scratchDirectory()
        var metadata = ";FFMETADATA1\ntitle=The Book\nartist=An Author\nalbum=The Book\n"
        for (index, chapter) in chapters.enumerated() {
            let end = index + 1 < chapters.count ? chapters[index + 1].start : length
            metadata += "[CHAPTER]\nTIMEBASE=1/1000\nSTART=\(Int(chapter.start * 1000))\nEND=\(Int(end * 1000))\ntitle=\(chapter.title)\n"
        }
        let meta = directory.appendingPathComponent("chapters.txt")
        try metadata.write(to: meta, atomically: true, encoding: .utf8)
        let url = directory.appendingPathComponent(name)
        try await ChildProcess.check("ffmpeg", ["-nostdin", "-loglevel", "error", "-f", "lavfi", "-i", "sine=440:d=\(length)", "-i", meta.path,
                                                "-map_metadata", "1", "-map_chapters", "1", "-c:a", "aac", "-b:a", "64k",
                                                "-fflags", "+bitexact", "-f", "ipod", url.path])
        var bytes = try [UInt8](Data(contentsOf: url))
        switch lists {
        case .both: break
        case .quickTimeOnly: try rename("chpl", in: &bytes)
        case .neroOnly: try rename("tref", in: &bytes)
        }
        try Data(bytes).write(to: url)
        if !pictures.isEmpty {
            let shown = zip(chapters.indices, pictures).map { index, picture in
                let end = index + 1 < chapters.count ? chapters[index + 1].start : length
                return "\(Int(((end - chapters[index].start) * 1000).rounded()))=\(picture.path)"
            }
            try await ChildProcess.check("python3", [mediaFixtures.appendingPathComponent("chapter_images.py").path, url.path] + shown)
        }
        return url
    }

    /// Tests/MediaFixtures.
    static let mediaFixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("MediaFixtures")

    /// Renames the one box of `type` to `free`.
    static func rename(_ type: String, in bytes: inout [UInt8]) throws {
        let pattern = Array(type.utf8)
        let found = (4..<(bytes.count - 4)).filter { bytes[$0..<($0 + 4)].elementsEqual(pattern) }
        guard found.count == 1 else { throw TestSupportError("\(found.count) '\(type)' boxes where one was expected") }
        bytes.replaceSubrange(found[0]..<(found[0] + 4), with: Array("free".utf8))
    }
}

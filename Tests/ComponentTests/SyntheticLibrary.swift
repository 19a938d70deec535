import Foundation
import Library
import SQLite
import TestSupport

/// A library database of made-up tracks, by bench/mpd's generator (`synthetic_library.py`, which
/// the benchmark runs for its 100k library): see there for what track i is.
enum SyntheticLibrary {
    static let generator = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../bench/mpd/synthetic_library.py").standardizedFileURL
    static let root = "file:///synthetic/music/"
    static let source = "synth"

    /// A new library with `count` generated tracks, and `extra` rows as given (column: value).
    static func make(count: Int, extra: [[String: any SQLiteConvertible]] = []) async throws -> (library: LibraryActor, file: URL) {
        let file = try Fixtures.shared.scratchDirectory().appendingPathComponent("library.sqlite")
        let library = LibraryActor()
        try await library.openDatabase(at: file)
        try await ChildProcess.check("python3", [generator.path, file.path, String(count), root, source])
        let database = try SQLiteConnection(path: file.path)
        defer { database.close() }
        for row in extra {
            let columns = row.keys.sorted()
            try database.execute("INSERT INTO track (\(columns.joined(separator: ", "))) VALUES (\(columns.map { _ in "?" }.joined(separator: ", ")))",
                                 columns.map { row[$0]! })
        }
        return (library, file)
    }

    /// Track i's folder and location, as the generator writes them.
    static func folder(artist: Int, album: Int? = nil) -> String {
        root + "Artist%20" + String(format: "%04d", artist) + "/" + (album.map { "Album%20" + String(format: "%02d", $0) + "/" } ?? "")
    }
}

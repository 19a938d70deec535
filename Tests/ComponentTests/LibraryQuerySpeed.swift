import Foundation
import Library
import Testing
import TestSupport

/// The MPD server's queries on 100,000 generated tracks, timed: numbers, not a test of speed
/// (a loaded machine would fail it). Runs only when LIBRARY_QUERY_BENCH is set (bench/mpd sets
/// it); prints p50/p99 per query.
@Suite struct LibraryQuerySpeed {
    static let enabled = ProcessInfo.processInfo.environment["LIBRARY_QUERY_BENCH"] != nil

    static func tag(_ tag: TrackTag, _ match: TagMatch, _ value: String, fold: Bool) -> TagFilter {
        .tag(tag, match, value, foldCase: fold)
    }

    @Test("p50/p99 of search, find, list, count and a listallinfo page at 100k tracks", .enabled(if: enabled))
    func hundredThousand() async throws {
        let count = Int(ProcessInfo.processInfo.environment["LIBRARY_QUERY_BENCH"] ?? "") ?? 100_000
        let library = try await SyntheticLibrary.make(count: count).library
        let queries: [(String, @Sendable () async throws -> Int)] = [
            ("search any 'quiet one'", { try await library.tracks(matching: TagQuery(filter: Self.tag(.any, .contains, "quiet one", fold: true)), from: nil).tracks.count }),
            ("search title 'song 01234'", { try await library.tracks(matching: TagQuery(filter: Self.tag(.title, .contains, "song 01234", fold: true)), from: nil).tracks.count }),
            ("search any 'qu' (2 letters)", { try await library.tracks(matching: TagQuery(filter: Self.tag(.any, .contains, "qu", fold: true)), from: nil).tracks.count }),
            ("find artist ==", { try await library.tracks(matching: TagQuery(filter: Self.tag(.artist, .equal, "Artist 0500", fold: false)), from: nil).tracks.count }),
            ("find album AND genre", { try await library.tracks(matching: TagQuery(filter: .and([Self.tag(.album, .equal, "Album 03 of Artist 0700", fold: false), Self.tag(.genre, .equal, "Rock", fold: false)])), from: nil).tracks.count }),
            ("list genre", { try await library.list(.genre, filter: nil).count }),
            ("list album", { try await library.list(.album, filter: nil).count }),
            ("list album group albumartist", { try await library.list(.album, filter: nil, groups: [.albumArtist]).count }),
            ("count artist ==", { try await library.count(Self.tag(.artist, .equal, "Artist 0500", fold: false)).count }),
            ("stats", { try await library.stats().songs }),
            ("listallinfo page (500)", { try await library.tracks(under: SyntheticLibrary.root, from: .after(folder: SyntheticLibrary.folder(artist: 600), url: ""), limit: 500).tracks.count }),
            ("lsinfo root subfolders", { try await library.subfolders(of: SyntheticLibrary.root).count }),
        ]
        var lines: [String] = []
        for (name, query) in queries {
            var times: [Double] = []
            var found = 0
            for _ in 0..<50 {
                let start = ContinuousClock.now
                found = try await query()
                let elapsed = ContinuousClock.now - start
                times.append(Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000)
            }
            times.sort()
            lines.append(String(format: "%-32@ %7.2f ms p50 %7.2f ms p99  (%d rows)", name as NSString, times[25], times[49], found))
        }
        print("library queries at \(count) tracks:\n" + lines.joined(separator: "\n"))
    }
}

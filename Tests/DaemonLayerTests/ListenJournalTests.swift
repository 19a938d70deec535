import Foundation
import Scrobbling
import Testing
import TestSupport

/// The listens waiting for ListenBrainz, on disk: kept in order across reopening, a line torn
/// by a crash mid-append skipped without losing the others, sent ones removed.
@Suite struct ListenJournalTests {
    private func listen(_ number: Int) -> Listen {
        Listen(listenedAt: 1_700_000_000 + Int64(number), artist: "Artist \(number)", track: "Track \(number)", release: "Album",
               durationMs: 180_000, trackNumber: number)
    }

    @Test("appended listens come back in order after reopening; removed ones do not")
    func appendReopenRemove() throws {
        let url = try ScratchSpace.directory().appendingPathComponent("state/listens.jsonl")
        var journal = ListenJournal(url: url)
        for number in 1...3 { try journal.append(listen(number)) }
        #expect(ListenJournal(url: url).pending == [listen(1), listen(2), listen(3)])
        try journal.removeFirst(2)
        #expect(ListenJournal(url: url).pending == [listen(3)])
        let mode = try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    @Test("a line cut short by a crash is skipped; the next append starts a line of its own")
    func tornLine() throws {
        let url = try ScratchSpace.directory().appendingPathComponent("listens.jsonl")
        var journal = ListenJournal(url: url)
        try journal.append(listen(1))
        let handle = try FileHandle(forWritingTo: url)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(#"{"listenedAt":17000"#.utf8))
        try handle.close()
        var reopened = ListenJournal(url: url)
        #expect(reopened.pending == [listen(1)])
        try reopened.append(listen(2))
        #expect(ListenJournal(url: url).pending == [listen(1), listen(2)])
    }

    @Test("the submission is the documented JSON: playing_now without a time, single for one listen, import for more")
    func submissionShape() throws {
        func object(_ submission: ListenBrainzSubmission) throws -> [String: Any] {
            try #require(try JSONSerialization.jsonObject(with: submission.json()) as? [String: Any])
        }
        let now = try object(.playingNow(listen(1), client: "0.1.0"))
        #expect(now["listen_type"] as? String == "playing_now")
        let payload = try #require((now["payload"] as? [[String: Any]])?.first)
        #expect(payload["listened_at"] == nil)
        let metadata = try #require(payload["track_metadata"] as? [String: Any])
        #expect(metadata["artist_name"] as? String == "Artist 1" && metadata["track_name"] as? String == "Track 1"
                && metadata["release_name"] as? String == "Album")
        let info = try #require(metadata["additional_info"] as? [String: Any])
        #expect(info["duration_ms"] as? Int == 180_000 && info["submission_client"] as? String == "cloudplayerd")
        #expect(try object(.listens([listen(1)], client: "0.1.0"))["listen_type"] as? String == "single")
        let batch = try object(.listens([listen(1), listen(2)], client: "0.1.0"))
        #expect(batch["listen_type"] as? String == "import")
        #expect((batch["payload"] as? [[String: Any]])?.map { $0["listened_at"] as? Int } == [1_700_000_001, 1_700_000_002])
    }
}

import FeedAnswers
import Foundation
import Parsers
import Testing

/// Feeds as real feeds are sloppy, one quirk per file in `Tests/FeedCorpus`, each checked against
/// the episodes its manifest expects (the manifest says where each expectation comes from).
struct FeedCorpusTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../FeedCorpus").standardizedFileURL
    static let base = URL(string: "https://example.com/podcasts/show/feed.xml")!

    /// One feed file and what it must give.
    struct Case: Sendable, CustomTestStringConvertible {
        var file: String
        /// "title | url" per episode, newest first.
        var episodes: [String] = []
        /// Words the error message holds, when the file must be refused.
        var error: String?

        var testDescription: String { file }
    }

    /// The manifest's cases: "== file" starts one; then episode lines or one "error: …" line.
    static let cases: [Case] = {
        let text = (try? String(contentsOf: folder.appendingPathComponent("manifest.txt"), encoding: .utf8)) ?? ""
        var cases: [Case] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) where !line.hasPrefix("#") {
            if line.hasPrefix("== ") {
                cases.append(Case(file: String(line.dropFirst(3))))
            } else if line.hasPrefix("error: ") {
                cases[cases.count - 1].error = String(line.dropFirst(7))
            } else if !cases.isEmpty {
                cases[cases.count - 1].episodes.append(String(line))
            }
        }
        return cases
    }()

    @Test("the corpus holds at least 30 feeds, and the manifest names each file once")
    func corpusIsComplete() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path).filter { $0 != "manifest.txt" }
        #expect(files.count >= 30)
        #expect(Set(files) == Set(Self.cases.map(\.file)))
        #expect(Self.cases.count == Set(Self.cases.map(\.file)).count)
    }

    @Test("each feed of the corpus gives the episodes its manifest expects", arguments: cases)
    func feed(_ expected: Case) throws {
        let bytes = [UInt8](try Data(contentsOf: Self.folder.appendingPathComponent(expected.file)))
        if let error = expected.error {
            #expect {
                try FeedParser.parse(bytes, base: Self.base)
            } throws: { thrown in
                "\(thrown)".contains(error)
            }
            return
        }
        let feed = try FeedParser.parse(bytes, base: Self.base)
        #expect(feed.items.map { "\($0.title) | \($0.url.absoluteString)" } == expected.episodes)
    }
}

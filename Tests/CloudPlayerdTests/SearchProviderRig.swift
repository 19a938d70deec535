import Foundation
import Testing
import TestSupport

/// The library the search provider tests search: `LibraryCLITests.Rig`'s WebDAV server (3 artists
/// × 2 albums × 3 tracks, `mix.m3u`, a feed) and one more track whose tag holds a cover, all
/// scanned by the daemon; with the shell's and the runner's calls as they make them.
struct SearchProviderRig {
    static let name = LibraryCLITests.name
    /// The covered track's tags, and its picture.
    static let coveredTitle = "Covered Song"
    static let cover = LibraryTree.cover(size: 3000)

    let rig: LibraryCLITests.Rig
    var bus: DBusTestBus { rig.bus }

    static func start() async throws -> SearchProviderRig {
        let rig = try await LibraryCLITests.Rig.start()
        let audio = try await LibraryTree.audio().bytes
        let folder = rig.server.root.appendingPathComponent("Coverist/Covered Album")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(LibraryTree.id3v2(title: coveredTitle, artist: "Coverist", album: "Covered Album", track: 1, cover: cover) + audio)
            .write(to: folder.appendingPathComponent("01 Covered Song.mp3"))
        let scan = try await rig.ctl("scan")
        #expect(scan.status == 0 && scan.stdout.contains("19 tracks"), "\(scan.stdout) \(scan.stderr)")
        // One-second tracks must not run out while a test looks at what plays.
        _ = try await rig.bus.run("playerctl", ["-p", "cloudplayerd", "loop", "Playlist"])
        #expect(try await eventually { try await rig.ctl("status").stdout.contains(" · loop playlist · ") })
        return SearchProviderRig(rig: rig)
    }

    // MARK: GNOME Shell's calls

    /// `gdbus call` of a SearchProvider2 method, as the shell's GDBus proxy sends it.
    func gnome(_ method: String, _ arguments: String...) async throws -> ProcessResult {
        try await bus.run("gdbus", ["call", "--session", "--dest", Self.name, "--object-path", "/org/cloudplayerd/SearchProvider",
                                    "--method", "org.gnome.Shell.SearchProvider2.\(method)"] + arguments)
    }

    /// The ids a result set call answered (`(['artist:3', 'album:1'],)`).
    func ids(_ method: String, _ arguments: String...) async throws -> [String] {
        let result = try await bus.run("gdbus", ["call", "--session", "--dest", Self.name, "--object-path", "/org/cloudplayerd/SearchProvider",
                                                 "--method", "org.gnome.Shell.SearchProvider2.\(method)"] + arguments)
        #expect(result.status == 0, "\(method): \(result.stderr)")
        return Self.quoted(result.stdout)
    }

    /// GetResultMetas' answer: each result's entries (`{'id': <'track:4'>, 'name': <'…'>, …}`).
    func metas(_ ids: [String]) async throws -> [[String: String]] {
        let result = try await gnome("GetResultMetas", Self.gvariant(ids))
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout.split(separator: "}").map { record in
            var entries: [String: String] = [:]
            for match in String(record).matches(of: /'([a-z]+)': <'((?:[^'\\]|\\.)*)'>/) { entries[String(match.1)] = String(match.2) }
            return entries
        }.filter { !$0.isEmpty }
    }

    /// `['a', 'b']`, a GVariant string array as gdbus takes it.
    static func gvariant(_ strings: [String]) -> String {
        "[" + strings.map { "'" + $0.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'" }
            .joined(separator: ", ") + "]"
    }

    static func quoted(_ text: String) -> [String] {
        text.matches(of: /'((?:[^'\\]|\\.)*)'/).map { String($0.1) }
    }

    // MARK: KRunner's calls

    /// `busctl call` of a krunner1 method; the answer as busctl's JSON (`data`), or nil on an error.
    func krunner(_ method: String, _ signature: String = "", _ arguments: String...) async throws -> (data: Any?, result: ProcessResult) {
        let result = try await bus.run("busctl", ["--address=\(bus.address)", "--json=short", "call", Self.name, "/org/cloudplayerd/KRunner",
                                                  "org.kde.krunner1", method] + (signature.isEmpty ? [] : [signature]) + arguments)
        guard result.status == 0 else { return (nil, result) }
        let object = result.stdout.isEmpty ? nil : try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        return (object?["data"], result)
    }

    // MARK: The player

    func playing() async throws -> (status: String, title: String) {
        let status = try await bus.run("playerctl", ["-p", "cloudplayerd", "status"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let title = try await bus.run("playerctl", ["-p", "cloudplayerd", "metadata", "xesam:title"]).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        return (status, title)
    }

    /// The queue's track titles, in order.
    func queueTitles() async throws -> [String] {
        try await rig.rows("queue", "ls").map { $0["title"] as? String ?? "" }
    }
}

import Foundation
import Testing
import TestSupport

/// A real daemon on a private bus whose files or bus are damaged under it: a library database
/// overwritten or cut short (before it starts, and while it runs), a garbage state file, and a
/// dbus-daemon that goes away.
@Suite(.timeLimit(.minutes(4)))
struct ResilienceTests {
    static let name = "org.mpris.MediaPlayer2.cloudplayerd"
    /// A user playlist name with a path separator: its M3U file must be named without one.
    static let playlist = "Road / Trip"

    /// How a test damages `library.sqlite`, in place (the same inode, as a disk or a filesystem
    /// would): all of it garbage, or cut short in the middle of a page.
    enum Damage: String, CaseIterable, CustomTestStringConvertible {
        case garbage, truncated
        var testDescription: String { rawValue }

        func apply(to file: URL) throws {
            let size = try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int ?? 0
            #expect(size >= 4096, "the library has pages to damage")
            let handle = try FileHandle(forUpdating: file)
            defer { try? handle.close() }
            switch self {
            case .garbage:
                try handle.write(contentsOf: (0..<size).map { _ in UInt8.random(in: 0...255) })
            case .truncated:
                try handle.truncate(atOffset: UInt64(size - 1500))
            }
        }
    }

    /// A local source of 1 artist × 1 album × 3 tracks, and a daemon on a private bus.
    private struct Rig {
        let bus: DBusTestBus
        let config: URL
        let cacheHome: URL
        var daemon: ChildProcess

        var data: URL { bus.dataHome.appendingPathComponent("cloudplayerd") }
        var library: URL { data.appendingPathComponent("library.sqlite") }

        static func start() async throws -> Rig {
            let folder = try Fixtures.shared.scratchDirectory()
            let music = folder.appendingPathComponent("music")
            _ = try LibraryTree.write(into: music, artists: 1, albums: 1, tracks: 3, audio: try await LibraryTree.audio().bytes)
            let config = folder.appendingPathComponent("config.toml")
            try Data("[[source]]\nname = \"music\"\ntype = \"local\"\npath = \"\(music.path)\"\n".utf8).write(to: config)
            let bus = try await DBusTestBus()
            let cacheHome = folder.appendingPathComponent("cache")
            let rig = Rig(bus: bus, config: config, cacheHome: cacheHome, daemon: try Self.daemon(bus: bus, config: config, cacheHome: cacheHome))
            try await rig.waitForDaemon()
            return rig
        }

        static func daemon(bus: DBusTestBus, config: URL, cacheHome: URL) throws -> ChildProcess {
            try ChildProcess(BuiltProducts.cloudplayerd, ["daemon", "--output", "null", "--config", config.path],
                             environment: bus.environment.merging(["XDG_CACHE_HOME": cacheHome.path]) { $1 })
        }

        func waitForDaemon() async throws {
            #expect(try await bus.waitForName(ResilienceTests.name), "\(daemon.errorSoFar())")
        }

        /// Stops the daemon; returns what it printed.
        func stopDaemon() async -> ProcessResult {
            await ResilienceTests.stop(daemon)
        }

        mutating func restartDaemon() async throws {
            daemon = try Self.daemon(bus: bus, config: config, cacheHome: cacheHome)
            try await waitForDaemon()
        }

        func rows(_ arguments: String...) async throws -> [[String: Any]] {
            let result = try await bus.run(BuiltProducts.cloudplayerctl, arguments + ["--json"])
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            return try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]] ?? []
        }

        /// Scans, and makes the user's playlist of the first two tracks; returns their URLs.
        func scanAndMakePlaylist() async throws -> [String] {
            let scan = try await bus.run(BuiltProducts.cloudplayerctl, ["scan"])
            #expect(scan.status == 0 && scan.stdout.contains("3 tracks"), "\(scan.stdout) \(scan.stderr)")
            let tracks = try await rows("ls").sorted { ($0["title"] as? String ?? "") < ($1["title"] as? String ?? "") }
            #expect(tracks.count == 3)
            let ids = tracks.prefix(2).compactMap { ($0["id"] as? Int).map(String.init) }
            #expect(try await bus.run(BuiltProducts.cloudplayerctl, ["playlist", "create", ResilienceTests.playlist]).status == 0)
            let add = try await bus.run(BuiltProducts.cloudplayerctl, ["playlist", "add", ResilienceTests.playlist] + ids)
            #expect(add.status == 0, "\(add.stderr)")
            return try await playlistURLs()
        }

        /// The user's playlist as `playlist ls` lists it: its id (clients refer to it by that) and
        /// whether it is kept offline.
        func userPlaylist() async throws -> (id: Int?, pinned: Bool?) {
            let row = try await rows("playlist", "ls").first { $0["name"] as? String == ResilienceTests.playlist }
            return (row?["id"] as? Int, row?["pinned"] as? Bool)
        }

        func playlistURLs() async throws -> [String] {
            try await rows("playlist", "ls", ResilienceTests.playlist).compactMap { $0["url"] as? String }
        }

        /// The M3U file of the playlist: named without its slash, holding both locations.
        func mirroredPlaylist() throws -> String {
            let folder = data.appendingPathComponent("playlists")
            let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            #expect(files.count == 1 && files[0].hasSuffix(".m3u") && !files[0].contains("/"), "\(files)")
            return try String(contentsOf: folder.appendingPathComponent(files.first ?? ""), encoding: .utf8)
        }

        /// The files set aside as damaged, by their suffixes after `library.sqlite.damaged-DATE`.
        func setAside(_ base: String) throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: data.path).filter { $0.hasPrefix(base + ".damaged-") }
        }

        /// Polls until the rescan after a rebuild has found the tracks again (~20 s at most).
        func eventuallyRescanned() async throws -> Bool {
            for _ in 0..<200 {
                let result = try await bus.run(BuiltProducts.cloudplayerctl, ["ls", "--json"])
                if result.status == 0,
                   let rows = try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]], rows.count == 3 {
                    return true
                }
                try await Task.sleep(for: .milliseconds(100))
            }
            return false
        }
    }

    @Test("a library damaged while the daemon was stopped is set aside, rebuilt from the sources, and keeps your playlists", arguments: Damage.allCases)
    func damagedBeforeStart(_ damage: Damage) async throws {
        var rig = try await Rig.start()
        let urls = try await rig.scanAndMakePlaylist()
        #expect(urls.count == 2)
        #expect(try await rig.bus.run(BuiltProducts.cloudplayerctl, ["cache", "pin", ResilienceTests.playlist]).status == 0)
        let before = try await rig.userPlaylist()
        #expect(before.id != nil && before.pinned == true)
        let m3u = try rig.mirroredPlaylist()
        #expect(m3u.contains("#PLAYLIST:\(Self.playlist)") && urls.allSatisfy { m3u.contains($0) }, "\(m3u)")
        #expect(await rig.stopDaemon().status == 0)

        try damage.apply(to: rig.library)
        try await rig.restartDaemon()
        #expect(try await rig.eventuallyRescanned(), "\(rig.daemon.errorSoFar())")
        #expect(try await rig.playlistURLs() == urls)
        // The same id (a reference a client holds means this playlist still) and still kept offline.
        let after = try await rig.userPlaylist()
        #expect(after.id == before.id && after.pinned == true, "before \(before), after \(after)")
        #expect(try rig.setAside("library.sqlite").count >= 1)
        let output = await rig.stopDaemon()
        #expect(output.status == 0)
        let lines = output.stderr.split(separator: "\n").filter { $0.contains("library") && $0.contains("is damaged") }
        #expect(lines.count == 1 && lines[0].contains("set aside as library.sqlite.damaged-"), "\(output.stderr)")
        await rig.bus.stop()
    }

    @Test("a library damaged under a running daemon is noticed at the next request, set aside, rebuilt, and keeps your playlists", arguments: Damage.allCases)
    func damagedWhileRunning(_ damage: Damage) async throws {
        let rig = try await Rig.start()
        let urls = try await rig.scanAndMakePlaylist()
        try damage.apply(to: rig.library)
        // The next request answers from a new library: no "database disk image is malformed".
        let listing = try await rig.bus.run(BuiltProducts.cloudplayerctl, ["playlist", "ls", "--json"])
        #expect(listing.status == 0 && listing.stdout.contains(Self.playlist), "\(listing.stdout) \(listing.stderr)")
        #expect(try await rig.eventuallyRescanned(), "\(rig.daemon.errorSoFar())")
        #expect(try await rig.playlistURLs() == urls)
        #expect(try rig.setAside("library.sqlite").count >= 1)
        let output = await rig.stopDaemon()
        #expect(output.status == 0)
        #expect(output.stderr.split(separator: "\n").filter { $0.contains("is damaged") }.count == 1, "\(output.stderr)")
        await rig.bus.stop()
    }

    /// Stops a daemon with SIGTERM; returns what it printed.
    private static func stop(_ daemon: ChildProcess) async -> ProcessResult {
        daemon.signal(SIGTERM)
        return await daemon.wait()
    }

    /// A daemon with no config file, once it owns its name.
    private static func daemonWithoutSources(on bus: DBusTestBus) async throws -> ChildProcess {
        let daemon = try ChildProcess(BuiltProducts.cloudplayerd, ["daemon", "--output", "null"],
                                      environment: bus.environment.merging(["XDG_CACHE_HOME": try Fixtures.shared.scratchDirectory().path]) { $1 })
        #expect(try await bus.waitForName(name), "\(daemon.errorSoFar())")
        return daemon
    }

    @Test("a garbage state file is set aside and the daemon starts")
    func damagedStateFile() async throws {
        let bus = try await DBusTestBus()
        let data = bus.dataHome.appendingPathComponent("cloudplayerd")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        let garbage = Data("{\"queue\": [ not json".utf8)
        try garbage.write(to: data.appendingPathComponent("state.json"))
        let daemon = try await Self.daemonWithoutSources(on: bus)
        let status = try await bus.run(BuiltProducts.cloudplayerctl, ["status"])
        #expect(status.status == 0, "\(status.stderr)")
        let aside = try FileManager.default.contentsOfDirectory(atPath: data.path).filter { $0.hasPrefix("state.json.damaged-") }
        #expect(aside.count == 1)
        #expect(FileManager.default.contents(atPath: data.appendingPathComponent(aside.first ?? "").path) == garbage)
        let output = await Self.stop(daemon)
        #expect(output.status == 0)
        #expect(output.stderr.contains("is damaged; set aside as state.json.damaged-"), "\(output.stderr)")
        await bus.stop()
    }

    @Test("when its session bus goes away the daemon stops with exit status 3 and says why")
    func busLost() async throws {
        let bus = try await DBusTestBus()
        let daemon = try await Self.daemonWithoutSources(on: bus)
        await bus.stop()
        let output = await daemon.wait()
        #expect(output.status == 3 && !output.killedBySignal)
        #expect(output.stderr.contains("lost the session bus connection"), "\(output.stderr)")
    }
}

import Foundation
import Testing
import TestSupport

/// The desktop's search finds and starts the daemon as installed: the shipped GNOME Shell
/// provider file and KRunner plugin name a bus name that D-Bus activation starts the daemon
/// for, and an object that answers there.
@Suite(.timeLimit(.minutes(3)))
struct SearchProviderActivationTests {
    private var root: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    /// `KEY=value` lines of an .ini or .desktop file.
    private func keys(_ file: String) throws -> [String: String] {
        let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
        return Dictionary(text.split(separator: "\n").compactMap { line -> (String, String)? in
            guard !line.hasPrefix("#"), let equals = line.firstIndex(of: "=") else { return nil }
            return (String(line[..<equals]), String(line[line.index(after: equals)...]))
        }, uniquingKeysWith: { $1 })
    }

    /// A private bus that starts the daemon on demand by the shipped activation file for
    /// `busName` (the program and its homes put in), over a library of two tracks in a folder;
    /// the daemon's homes in the scratch folder. Nothing is started yet.
    private func activatingBus(_ busName: String) async throws -> DBusTestBus {
        let scratch = try Fixtures.shared.scratchDirectory()
        let music = scratch.appendingPathComponent("music")
        _ = try LibraryTree.write(into: music, artists: 1, albums: 1, tracks: 2, audio: try await LibraryTree.audio().bytes)
        let config = scratch.appendingPathComponent("config.toml")
        try Data("[[source]]\nname = \"home\"\ntype = \"local\"\npath = \"\(music.path)\"\n".utf8).write(to: config)
        let services = scratch.appendingPathComponent("services")
        try FileManager.default.createDirectory(at: services, withIntermediateDirectories: true)
        let shipped = try String(contentsOf: root.appendingPathComponent("dbus/\(busName).service"), encoding: .utf8)
        #expect(shipped.contains("Name=\(busName)\n"))
        let homes = ["DATA", "CACHE", "CONFIG", "STATE"].map { "XDG_\($0)_HOME=\(scratch.appendingPathComponent($0.lowercased()).path)" }
        let local = shipped.replacingOccurrences(of: "/usr/bin/cloudplayerd daemon", with: "/usr/bin/env \(homes.joined(separator: " ")) "
                                                   + "\(BuiltProducts.cloudplayerd) daemon --output null --config \(config.path)")
            .split(separator: "\n").filter { !$0.hasPrefix("SystemdService=") }.joined(separator: "\n")
        try Data(local.utf8).write(to: services.appendingPathComponent("\(busName).service"))
        let bus = try await DBusTestBus(serviceDirectory: services)
        #expect(try await bus.waitForName(busName, present: false, attempts: 1))
        return bus
    }

    @Test("the launcher's Exec line: with no file it starts the daemon (D-Bus activation) and exits 0; with one it queues and plays it")
    func launcher() async throws {
        let exec = try #require(try keys("packaging/cloudplayerd.desktop")["Exec"])
        #expect(exec.hasPrefix("cloudplayerctl ") && exec.hasSuffix(" %U"), "\(exec)")
        // What the desktop runs: the program from PATH, %U the files it was given (none, or one).
        let arguments = exec.split(separator: " ").dropFirst().dropLast().map(String.init)
        let busName = "org.mpris.MediaPlayer2.cloudplayerd"
        let bus = try await activatingBus(busName)
        let bare = try await bus.run(BuiltProducts.cloudplayerctl, arguments)
        #expect(bare.status == 0, "\(exec) with no file: \(bare.stdout)\(bare.stderr)")
        #expect(try await bus.waitForName(busName))
        let file = try await Fixtures.shared.url(.longMP3)
        let opened = try await bus.run(BuiltProducts.cloudplayerctl, arguments + [file.path])
        #expect(opened.status == 0 && opened.stdout.contains("queued 1 track"), "\(opened.stdout)\(opened.stderr)")
        #expect(try await eventually { try await bus.run("playerctl", ["-p", "cloudplayerd", "status"]).stdout == "Playing\n" })
        _ = try await bus.run("busctl", ["--address=\(bus.address)", "call", busName, "/org/mpris/MediaPlayer2", "org.mpris.MediaPlayer2", "Quit"])
        #expect(try await bus.waitForName(busName, present: false))
        await bus.stop()
    }

    @Test("a search call to the provider's bus name starts the daemon (D-Bus activation); the shipped .ini and KRunner plugin name what answers")
    func activation() async throws {
        let provider = try keys("packaging/cloudplayerd-search-provider.ini")
        #expect(provider["Version"] == "2" && provider["DesktopId"] == "cloudplayerd.desktop")
        let app = try keys("packaging/cloudplayerd.desktop")
        #expect(app["NoDisplay"] != "true", "GNOME Shell skips a provider whose app is hidden")
        let runner = try keys("packaging/cloudplayerd-krunner.desktop")
        #expect(runner["X-Plasma-API"] == "DBus")
        for file in ["packaging/cloudplayerd.desktop", "packaging/cloudplayerd-krunner.desktop"] {
            let validated = try await ChildProcess.run("desktop-file-validate", [root.appendingPathComponent(file).path])
            #expect(validated.status == 0 && validated.stdout.isEmpty && validated.stderr.isEmpty, "\(file): \(validated.stdout)\(validated.stderr)")
        }
        let busName = try #require(provider["BusName"])
        let objectPath = try #require(provider["ObjectPath"])
        #expect(runner["X-Plasma-DBusRunner-Service"] == busName)

        let bus = try await activatingBus(busName)

        func search(_ word: String) async throws -> ProcessResult {
            try await bus.run("gdbus", ["call", "--session", "--dest", busName, "--object-path", objectPath,
                                        "--method", "org.gnome.Shell.SearchProvider2.GetInitialResultSet", "['\(word)']"])
        }
        // The first call starts the daemon and is answered by it.
        let first = try await search("song")
        #expect(first.status == 0, "\(first.stderr)")
        #expect(try await bus.waitForName(busName))
        let scan = try await bus.run(BuiltProducts.cloudplayerctl, ["scan"])
        #expect(scan.status == 0, "\(scan.stderr)")
        let found = try await search("song")
        #expect(SearchProviderRig.quoted(found.stdout).filter { $0.hasPrefix("track:") }.count == 2, "\(found.stdout) \(found.stderr)")
        let matched = try await bus.run("busctl", ["--address=\(bus.address)", "call", busName, try #require(runner["X-Plasma-DBusRunner-Path"]),
                                                   "org.kde.krunner1", "Match", "s", "song"])
        #expect(matched.stdout.hasPrefix("a(sssida{sv}) 2 "), "\(matched.stdout) \(matched.stderr)")

        _ = try await bus.run("busctl", ["--address=\(bus.address)", "call", busName, "/org/mpris/MediaPlayer2", "org.mpris.MediaPlayer2", "Quit"])
        #expect(try await bus.waitForName(busName, present: false))
        await bus.stop()
    }
}

import Foundation
import Testing
import TestSupport

/// The daemon as a program: its versions and its name, restarts, SIGHUP, and Manager1 calls that
/// are wrong (the rest of `LibraryCLITests` drives the library and the player).
extension LibraryCLITests {
    @Test("--version names the package's version on both programs, and cloudplayerd the libraries it plays with")
    func versions() async throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let changelog = try String(contentsOf: root.appendingPathComponent("packaging/debian/changelog"), encoding: .utf8)
        let version = try #require(changelog.split(separator: "\n").first.flatMap { $0.split(separator: "(").dropFirst().first?.split(separator: ")").first })
        let daemon = try await ChildProcess.run(BuiltProducts.cloudplayerd, ["--version"])
        let lines = daemon.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(lines.first == "cloudplayerd \(version)")
        for library in ["libopus", "libFLAC", "libVorbis", "libpulse", "SQLite"] {
            #expect(lines.contains { $0.contains(library) }, "\(daemon.stdout)")
        }
        #expect(try await ChildProcess.run(BuiltProducts.cloudplayerctl, ["--version"]).stdout == "cloudplayerctl \(version)\n")
    }

    @Test("cloudplayerd started as cloudplayerctl (the package's link) is cloudplayerctl: its version, help and commands")
    func multiCall() async throws {
        let link = try Fixtures.shared.scratchDirectory().appendingPathComponent("cloudplayerctl").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: BuiltProducts.cloudplayerd)
        let own = try await ChildProcess.run(BuiltProducts.cloudplayerctl, ["--version"]).stdout
        #expect(try await ChildProcess.run(link, ["--version"]).stdout == own)
        let help = try await ChildProcess.run(link, ["queue", "--help"], environment: BuiltProducts.isolation)
        #expect(help.status == 0 && help.stdout.contains("USAGE: cloudplayerctl queue"), "\(help.stdout)\(help.stderr)")
        let status = try await ChildProcess.run(link, ["status"], environment: BuiltProducts.isolation)
        #expect(status.status == 3, "no daemon on the bus: \(status.stdout)\(status.stderr)")
        #expect(try await ChildProcess.run(BuiltProducts.cloudplayerd, ["--version"]).stdout.hasPrefix("cloudplayerd "))
    }

    @Test("after SIGKILL the daemon comes back paused near where it was; after SIGTERM exactly there")
    func stateSurvivesRestarts() async throws {
        let bus = try await DBusTestBus()
        let cacheHome = try Fixtures.shared.scratchDirectory()
        let config = cacheHome.appendingPathComponent("config.toml")
        try Data().write(to: config)
        func start() async throws -> ChildProcess {
            let daemon = try ChildProcess(BuiltProducts.cloudplayerd, ["daemon", "--output", "null", "--config", config.path],
                                          environment: bus.environment.merging(["XDG_CACHE_HOME": cacheHome.path]) { $1 })
            #expect(try await bus.waitForName(Self.name))
            return daemon
        }
        func status() async throws -> [String: Any] {
            let result = try await bus.run(BuiltProducts.cloudplayerctl, ["status", "--json"])
            return try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any] ?? [:]
        }
        let long = try await Fixtures.shared.url(.longMP3), other = try await Fixtures.shared.url(.vbrMP3)
        var daemon = try await start()
        #expect(try await bus.run(BuiltProducts.cloudplayerctl, ["queue", "add", other.path, long.path]).status == 0)
        #expect(try await bus.run(BuiltProducts.cloudplayerctl, ["queue", "play", "2"]).status == 0)
        _ = try await bus.run("playerctl", ["-p", "cloudplayerd", "volume", "0.4"])
        _ = try await bus.run("playerctl", ["-p", "cloudplayerd", "shuffle", "On"])
        var before = 0.0
        var readAt = ContinuousClock.now
        #expect(try await eventually {
            readAt = .now
            before = try await status()["position"] as? Double ?? 0
            return before >= 5
        })
        daemon.signal(SIGKILL)
        // The daemon played on while the status was read and until the kill: it may have saved
        // a later place than `before`, by at most that time.
        let sinceRead = readAt.duration(to: .now)
        let playedOn = Double(sinceRead.components.seconds) + Double(sinceRead.components.attoseconds) / 1e18
        _ = await daemon.wait()

        daemon = try await start()
        var restored: [String: Any] = [:]
        #expect(try await eventually {
            restored = try await status()
            return restored["status"] as? String == "Paused"
        }, "comes back paused")
        #expect(restored["url"] as? String == long.absoluteString)
        let position = restored["position"] as? Double ?? -1
        #expect(position <= before + playedOn + 0.1 && position >= before - 4.5,
                "saved at most a few seconds before the kill: \(position) vs \(before) (+\(playedOn) s until the kill)")
        #expect(abs((restored["volume"] as? Double ?? 0) - 0.4) < 0.01)
        #expect(restored["shuffle"] as? Bool == true)
        #expect(restored["queue_length"] as? Int == 2)

        // Play on, pause, stop cleanly: the exact place is saved.
        _ = try await bus.run("playerctl", ["-p", "cloudplayerd", "play"])
        #expect(try await eventually { (try await status()["position"] as? Double ?? 0) >= position + 1 })
        _ = try await bus.run("playerctl", ["-p", "cloudplayerd", "pause"])
        #expect(try await eventually { try await status()["status"] as? String == "Paused" })
        let paused = try await status()["position"] as? Double ?? -1
        daemon.signal(SIGTERM)
        let ended = await daemon.wait()
        #expect(ended.status == 0, "\(ended.ending)")
        daemon = try await start()
        #expect(try await eventually { try await status()["status"] as? String == "Paused" })
        #expect(abs((try await status()["position"] as? Double ?? -1) - paused) < 0.3)
        let saved = bus.dataHome.appendingPathComponent("cloudplayerd/state.json")
        #expect(try FileManager.default.attributesOfItem(atPath: saved.path)[.posixPermissions] as? Int == 0o600)
        daemon.signal(SIGTERM)
        _ = await daemon.wait()
        await bus.stop()
    }

    @Test("SIGHUP reloads the config: sources, [cache] max_size at once, a new [cache] dir said to wait for a restart; a broken one is reported with its line and the last good one stays")
    func reloadOnHangup() async throws {
        let bus = try await DBusTestBus()
        let folder = try Fixtures.shared.scratchDirectory()
        let config = folder.appendingPathComponent("config.toml")
        func write(_ names: [String], broken: Bool = false, cache: String = "") throws {
            var text = names.map { "[[source]]\nname = \"\($0)\"\ntype = \"local\"\npath = \"\(folder.path)\"\n" }.joined(separator: "\n")
            if broken { text += "\n[cache]\nsize = 3\n" }
            try Data((text + cache).utf8).write(to: config)
        }
        try write(["first"])
        let daemon = try ChildProcess(BuiltProducts.cloudplayerd, ["daemon", "--output", "null", "--config", config.path],
                                      environment: bus.environment.merging(["XDG_CACHE_HOME": folder.path]) { $1 })
        #expect(try await bus.waitForName(Self.name))
        func names() async throws -> [String] {
            let result = try await bus.run(BuiltProducts.cloudplayerctl, ["sources", "--json"])
            let rows = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]] ?? []
            return rows.compactMap { $0["name"] as? String }
        }
        #expect(try await names() == ["first"])
        try write(["first", "second"])
        daemon.signal(SIGHUP)
        #expect(try await eventually { try await names() == ["first", "second"] })
        var line = ""
        let cacheLine = { try await bus.run(BuiltProducts.cloudplayerctl, ["cache"]).stdout }
        line = try await cacheLine()
        #expect(line.contains(" of 2.0 GiB in \(folder.path)/cloudplayerd/data"), "\(line)")
        try write(["first", "second"], cache: "\n[cache]\nmax_size = \"5 MiB\"\ndir = \"\(folder.path)/elsewhere\"\n")
        daemon.signal(SIGHUP)
        #expect(try await eventually {
            line = try await cacheLine()
            return line.contains(" of 5.0 MiB in \(folder.path)/cloudplayerd/data")
        }, "\(line)")
        #expect(try await eventually {
            daemon.errorSoFar().contains("[cache] dir changed to \(folder.path)/elsewhere: it takes effect when the daemon starts again; "
                                         + "until then the cache stays in \(folder.path)/cloudplayerd")
        }, "\(daemon.errorSoFar())")
        try write(["third"], broken: true)
        daemon.signal(SIGHUP)
        let reload = try await bus.run("busctl", ["--address=\(bus.address)", "call", Self.name, "/org/cloudplayerd/Manager1",
                                                   "org.cloudplayerd.Manager1", "Reload"])
        #expect(reload.status != 0 && reload.stderr.contains("config.toml:7: cache.size: unknown key"), "\(reload.stderr)")
        #expect(try await names() == ["first", "second"], "the last good config stays")
        daemon.signal(SIGTERM)
        let output = await daemon.wait()
        #expect(output.status == 0)
        #expect(output.stderr.contains("config not reloaded, keeping the last good one"), "\(output.stderr)")
        await bus.stop()
    }

    @Test("a source whose path is wrong: the scan names the folder and the setting to fix, once; sources' STATUS shows the cause; corrected and reloaded, the old error is gone")
    func wrongPathThenCorrected() async throws {
        let bus = try await DBusTestBus()
        let folder = try Fixtures.shared.scratchDirectory()
        let music = folder.appendingPathComponent("Music")
        try FileManager.default.createDirectory(at: music, withIntermediateDirectories: true)
        let config = folder.appendingPathComponent("config.toml")
        func write(_ path: String) throws {
            try Data("[[source]]\nname = \"music\"\ntype = \"local\"\npath = \"\(path)\"\n".utf8).write(to: config)
        }
        try write(folder.path + "/Musik")
        let daemon = try ChildProcess(BuiltProducts.cloudplayerd, ["daemon", "--output", "null", "--config", config.path],
                                      environment: bus.environment.merging(["XDG_CACHE_HOME": folder.path]) { $1 })
        #expect(try await bus.waitForName(Self.name))
        let scan = try await bus.run(BuiltProducts.cloudplayerctl, ["scan"])
        #expect(scan.status == 1)
        #expect(scan.stdout == "music: failed\n  cannot list \(folder.path)/Musik: no such folder; check the source's path\n", "\(scan.stdout)")
        func statusColumn() async throws -> String {
            let table = try await bus.run(BuiltProducts.cloudplayerctl, ["sources"]).stdout
            let lines = table.split(separator: "\n").map(String.init)
            guard let header = lines.first, let row = lines.dropFirst().first,
                  let start = header.range(of: "STATUS"), let end = header.range(of: "URL") else { return "?: \(table)" }
            let cells = Array(row)
            let from = header.distance(from: header.startIndex, to: start.lowerBound), to = header.distance(from: header.startIndex, to: end.lowerBound)
            return String(cells[min(from, cells.count)..<min(to, cells.count)]).trimmingCharacters(in: .whitespaces)
        }
        let wrong = try await statusColumn()
        let table = try await bus.run(BuiltProducts.cloudplayerctl, ["sources"]).stdout
        #expect(wrong == "no such folder; check the source's path", "\(table)")
        try write(music.path)
        daemon.signal(SIGHUP)
        var status = ""
        #expect(try await eventually {
            status = try await statusColumn()
            return status == "ok"
        }, "\(status)")
        daemon.signal(SIGTERM)
        _ = await daemon.wait()
        await bus.stop()
    }

    @Test("Manager1 calls with wrong signatures, unknown members, bad references and huge arrays are errors; the daemon answers on")
    func badCalls() async throws {
        let bus = try await DBusTestBus()
        let folder = try Fixtures.shared.scratchDirectory()
        let daemon = try ChildProcess(BuiltProducts.cloudplayerd, ["daemon", "--output", "null"],
                                      environment: bus.environment.merging(["XDG_CACHE_HOME": folder.path]) { $1 })
        #expect(try await bus.waitForName(Self.name))
        func call(_ arguments: String...) async throws -> ProcessResult {
            try await call(arguments)
        }
        func call(_ arguments: [String]) async throws -> ProcessResult {
            try await bus.run("busctl", ["--address=\(bus.address)", "call", "--", Self.name, "/org/cloudplayerd/Manager1",
                                         "org.cloudplayerd.Manager1"] + arguments)
        }
        #expect(try await call("Search", "s", "x").stderr.contains("Invalid arguments"))
        #expect(try await call("Search", "su", "x", "-1").status != 0)
        #expect(try await call("Nope").stderr.contains("Unknown method"))
        #expect(try await call("PlaylistShow", "s", "no such list").stderr.contains("no playlist 'no such list'"))
        #expect(try await call("QueueAdd", "asb", "2", "ftp://x/y", "/etc/passwd", "false").stderr.contains("neither a track id nor"))
        #expect(try await call("QueueAdd", "asb", "1", "https://u:p@example.org/a.mp3", "true").stderr.contains("credentials"))
        #expect(try await call("QueuePlay", "u", "4000000000").stderr.contains("no entry"))
        #expect(try await call("PlaylistCreate", "s", "").stderr.contains("1 to 200 characters"))
        #expect(try await call("Scan", "as", "1", "nowhere").stderr.contains("no source named 'nowhere'"))
        var huge = ["QueueAdd", "asb", "20000"]
        huge += (0..<20000).map { "x\($0)" }
        huge.append("false")
        #expect(try await call(huge).status != 0)
        let status = try await call("Status")
        #expect(status.status == 0 && status.stdout.contains("\"status\" s \"Stopped\""))
        let notRunning = try await DBusTestBus()
        let absent = try await notRunning.run(BuiltProducts.cloudplayerctl, ["status"])
        #expect(absent.status == 3 && absent.stderr.contains("cloudplayerd is not running"))
        await notRunning.stop()
        daemon.signal(SIGTERM)
        let ended = await daemon.wait()
        #expect(ended.status == 0, "\(ended.ending)")
        await bus.stop()
    }

    @Test("Introspect answers exactly what dbus/org.cloudplayerd.Manager1.xml documents")
    func introspectionMatchesDocument() async throws {
        let bus = try await DBusTestBus()
        let daemon = try ChildProcess(BuiltProducts.cloudplayerd, ["daemon", "--output", "null"],
                                      environment: bus.environment.merging(["XDG_CACHE_HOME": try Fixtures.shared.scratchDirectory().path]) { $1 })
        #expect(try await bus.waitForName(Self.name))
        let live = try await bus.run("busctl", ["--address=\(bus.address)", "introspect", "--xml-interface", Self.name, "/org/cloudplayerd/Manager1"])
        let document = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("dbus/org.cloudplayerd.Manager1.xml")
        let documented = try IntrospectionSummary.lines(of: String(contentsOf: document, encoding: .utf8), interfacesStartingWith: "org.cloudplayerd.")
        let exported = try IntrospectionSummary.lines(of: live.stdout, interfacesStartingWith: "org.cloudplayerd.")
        #expect(documented.count > 20)
        #expect(exported == documented)
        daemon.signal(SIGTERM)
        _ = await daemon.wait()
        await bus.stop()
    }
}

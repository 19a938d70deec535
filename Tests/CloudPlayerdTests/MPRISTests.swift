import Foundation
import Testing
import TestSupport

/// `cloudplayerd daemon` on a private session bus, driven by the real `playerctl` and checked
/// with `busctl`.
@Suite(.timeLimit(.minutes(3)))
struct MPRISTests {
    static let name = "org.mpris.MediaPlayer2.cloudplayerd"
    static let path = "/org/mpris/MediaPlayer2"
    static let player = "org.mpris.MediaPlayer2.Player"

    /// A daemon (null output) on a fresh bus, serving its name.
    func startDaemon(_ extra: [String] = [], cache: URL? = nil) async throws -> (DBusTestBus, ChildProcess) {
        let bus = try await DBusTestBus()
        let cacheHome = try cache ?? Fixtures.shared.scratchDirectory()
        let daemon = try ChildProcess(BuiltProducts.cloudplayerd, ["daemon", "--output", "null"] + extra,
                                      environment: bus.environment.merging(["XDG_CACHE_HOME": cacheHome.path]) { $1 })
        let name = extra.firstIndex(of: "--instance").map { Self.name + ".instance" + extra[$0 + 1] } ?? Self.name
        #expect(try await bus.waitForName(name), "the daemon never took \(name)")
        return (bus, daemon)
    }

    /// A daemon playing `file` on repeat (a short track must not end while a busy machine runs
    /// the test), once its status says Playing.
    func startPlaying(_ file: Fixtures.File) async throws -> (DBusTestBus, ChildProcess) {
        let (bus, daemon) = try await startDaemon()
        _ = try await playerctl(bus, "loop", "Track")
        _ = try await playerctl(bus, "open", try await Fixtures.shared.url(file).absoluteString)
        _ = try await eventually("Playing") { try await playerctl(bus, "status") }
        return (bus, daemon)
    }

    /// Stops the daemon (SIGTERM) and then the bus.
    func stop(_ daemon: ChildProcess, _ bus: DBusTestBus) async {
        daemon.signal(SIGTERM)
        _ = await daemon.wait()
        await bus.stop()
    }

    /// `busctl call` on the daemon's object; "--" lets a negative number be an argument.
    func call(_ bus: DBusTestBus, _ interface: String, _ arguments: [String]) async throws -> ProcessResult {
        try await bus.run("busctl", ["--address=\(bus.address)", "call", "--", Self.name, Self.path, interface] + arguments)
    }

    func playerctl(_ bus: DBusTestBus, _ arguments: String...) async throws -> String {
        let result = try await bus.run("playerctl", ["-p", "cloudplayerd"] + arguments)
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func property(_ bus: DBusTestBus, _ interface: String, _ name: String) async throws -> String {
        let result = try await bus.run("busctl", ["--address=\(bus.address)", "get-property", Self.name, Self.path, interface, name])
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Polls `read` until it returns `expected` (a state change travels through the player); it
    /// gives up after 20 s — generous, for a loaded machine or a sanitizer build, and no slower
    /// when the state arrives at once.
    func eventually(_ expected: String, _ read: () async throws -> String) async throws -> String {
        var last = ""
        for _ in 0..<400 {
            last = try await read()
            if last == expected { return last }
            try await Task.sleep(for: .milliseconds(50))
        }
        return last
    }

    /// On repeat, so a 6 s track cannot end before a pause that follows its start on a busy
    /// machine (a cold CI run, or a full run beside heavy suites, once took longer than that for
    /// the playerctl calls in between).
    func loopTrack(_ bus: DBusTestBus) async throws {
        _ = try await playerctl(bus, "loop", "Track")
        #expect(try await eventually("Track") { try await playerctl(bus, "loop") } == "Track")
    }

    @Test("playerctl: open, status, metadata, pause, position, volume, play-pause, stop")
    func playerctlSession() async throws {
        let (bus, daemon) = try await startDaemon()
        let file = try await Fixtures.shared.url(.vbrMP3)
        #expect(try await playerctl(bus, "status") == "Stopped")
        // "loop Playlist" further down is then still a change.
        try await loopTrack(bus)

        _ = try await playerctl(bus, "open", file.absoluteString)
        #expect(try await eventually("Playing") { try await playerctl(bus, "status") } == "Playing")
        #expect(try await eventually("Vbr Title") { try await playerctl(bus, "metadata", "title") } == "Vbr Title")
        #expect(try await playerctl(bus, "metadata", "--format", "{{artist}} – {{title}} {{duration(mpris:length)}}")
                == "Some Artist – Vbr Title 0:06")
        #expect(try await playerctl(bus, "metadata", "xesam:url") == file.absoluteString)

        _ = try await playerctl(bus, "pause")
        #expect(try await eventually("Paused") { try await playerctl(bus, "status") } == "Paused",
                "daemon log: \(daemon.errorSoFar())")
        _ = try await playerctl(bus, "position", "3")
        #expect(try await eventually("3.000000") { try await playerctl(bus, "position") } == "3.000000")
        _ = try await playerctl(bus, "position", "1-")
        #expect(try await eventually("2.000000") { try await playerctl(bus, "position") } == "2.000000")

        _ = try await playerctl(bus, "volume", "0.5")
        #expect(try await eventually("0.500000") { try await playerctl(bus, "volume") } == "0.500000")

        _ = try await playerctl(bus, "loop", "Playlist")
        #expect(try await eventually("Playlist") { try await playerctl(bus, "loop") } == "Playlist")
        _ = try await playerctl(bus, "shuffle", "On")
        #expect(try await eventually("On") { try await playerctl(bus, "shuffle") } == "On")

        _ = try await playerctl(bus, "play-pause")
        #expect(try await eventually("Playing") { try await playerctl(bus, "status") } == "Playing")
        _ = try await playerctl(bus, "stop")
        #expect(try await eventually("Stopped") { try await playerctl(bus, "status") } == "Stopped")
        #expect(try await playerctl(bus, "position") == "0.000000")

        daemon.signal(SIGTERM)
        let result = await daemon.wait()
        #expect(result.status == 0 && !result.killedBySignal, "stderr: \(result.stderr)")
        #expect(try await bus.waitForName(Self.name, present: false), "the name was not released")
        await bus.stop()
    }

    @Test("PropertiesChanged carries every change with its value, Seeked follows a jump, Position never changes by signal")
    func signals() async throws {
        let (bus, daemon) = try await startDaemon()
        let monitor = try ChildProcess("dbus-monitor", ["--address", bus.address,
                                                        "type='signal',path='/org/mpris/MediaPlayer2'"])
        // The monitor is listening once it has printed its own NameAcquired.
        while !monitor.outputSoFar().contains("NameAcquired") && !monitor.outputSoFar().contains("member=") {
            try await Task.sleep(for: .milliseconds(20))
        }
        let file = try await Fixtures.shared.url(.vbrMP3)
        try await loopTrack(bus)
        _ = try await playerctl(bus, "open", file.absoluteString)
        _ = try await eventually("Vbr Title") { try await playerctl(bus, "metadata", "title") }
        _ = try await playerctl(bus, "pause")
        _ = try await eventually("Paused") { try await playerctl(bus, "status") }
        _ = try await playerctl(bus, "position", "3")
        _ = try await eventually("3.000000") { try await playerctl(bus, "position") }
        _ = try await playerctl(bus, "volume", "0.25")
        _ = try await eventually("0.250000") { try await playerctl(bus, "volume") }
        // The whole queue replaced (cloudplayerctl queue clear): one TrackListReplaced, not a
        // TrackRemoved per entry.
        #expect(try await bus.run(BuiltProducts.cloudplayerctl, ["queue", "clear"]).status == 0)
        _ = try await eventually("Stopped") { try await playerctl(bus, "status") }
        // The last signals reach the monitor after playerctl saw their change: wait for them.
        _ = try await eventually("seen") {
            let so = monitor.outputSoFar()
            return so.contains("member=TrackListReplaced") && so.contains("string \"Stopped\"") ? "seen" : ""
        }
        monitor.signal(SIGTERM)
        let signals = await monitor.wait().stdout.components(separatedBy: "signal time=")

        func seen(_ member: String, _ fragments: String...) -> Bool {
            signals.contains { block in block.contains("member=\(member)") && fragments.allSatisfy { block.contains($0) } }
        }
        #expect(seen("PropertiesChanged", "\"PlaybackStatus\"", "string \"Playing\""))
        #expect(seen("PropertiesChanged", "\"PlaybackStatus\"", "string \"Paused\""))
        // A queued track makes Play possible; a new track brings Metadata and the Can* that follow
        // from it, in one signal, with values.
        #expect(seen("PropertiesChanged", "\"CanPlay\"", "boolean true"))
        #expect(seen("PropertiesChanged", "\"Metadata\"", "\"mpris:trackid\"", "\"CanSeek\""))
        #expect(seen("PropertiesChanged", "\"Volume\"", "double 0.25"))
        #expect(seen("Seeked", "int64 3000000"))
        #expect(seen("TrackMetadataChanged", "\"/org/cloudplayerd/track/1\"", "string \"Vbr Title\""))
        #expect(seen("TrackAdded", "\"/org/cloudplayerd/track/1\""))
        #expect(seen("TrackListReplaced", "object path \"/org/mpris/MediaPlayer2/TrackList/NoTrack\""))
        #expect(!seen("TrackRemoved"))
        #expect(!signals.contains { $0.contains("member=PropertiesChanged") && $0.contains("\"Position\"") })
        await stop(daemon, bus)
    }

    @Test("Introspect answers exactly what dbus/org.mpris.MediaPlayer2.xml documents")
    func introspectionMatchesDocument() async throws {
        let (bus, daemon) = try await startDaemon()
        let live = try await bus.run("busctl", ["--address=\(bus.address)", "introspect", "--xml-interface", Self.name, Self.path])
        let document = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("dbus/org.mpris.MediaPlayer2.xml")
        let documented = try IntrospectionSummary.lines(of: String(contentsOf: document, encoding: .utf8),
                                                        interfacesStartingWith: "org.mpris.")
        let exported = try IntrospectionSummary.lines(of: live.stdout, interfacesStartingWith: "org.mpris.")
        #expect(!documented.isEmpty)
        #expect(exported == documented)
        await stop(daemon, bus)
    }

    @Test("TrackList: AddTrack, Tracks, GetTracksMetadata, GoTo, RemoveTrack; GoTo of a removed track is an error")
    func trackList() async throws {
        let (bus, daemon) = try await startDaemon()
        _ = try await playerctl(bus, "loop", "Playlist")  // short tracks must not run out under a busy machine
        let trackList = "org.mpris.MediaPlayer2.TrackList"
        func call(_ method: String, _ arguments: String...) async throws -> ProcessResult {
            try await self.call(bus, trackList, [method] + arguments)
        }
        let first = try await Fixtures.shared.url(.vbrMP3)
        let second = try await Fixtures.shared.url(.opus)
        #expect(try await call("AddTrack", "sob", first.absoluteString, "/org/mpris/MediaPlayer2/TrackList/NoTrack", "false").status == 0)
        #expect(try await call("AddTrack", "sob", second.absoluteString, "/org/cloudplayerd/track/1", "true").status == 0)
        #expect(try await eventually("Opus Title") { try await playerctl(bus, "metadata", "title") } == "Opus Title")
        #expect(try await property(bus, trackList, "Tracks") == "ao 2 \"/org/cloudplayerd/track/1\" \"/org/cloudplayerd/track/2\"")
        let metadata = try await call("GetTracksMetadata", "ao", "2", "/org/cloudplayerd/track/1", "/org/cloudplayerd/track/2")
        #expect(metadata.stdout.hasPrefix("aa{sv} 2 "))
        #expect(metadata.stdout.contains("\"xesam:url\" s \"\(first.absoluteString)\""))
        #expect(metadata.stdout.contains("\"xesam:title\" s \"Opus Title\""))

        #expect(try await call("GoTo", "o", "/org/cloudplayerd/track/1").status == 0)
        #expect(try await eventually("Vbr Title") { try await playerctl(bus, "metadata", "title") } == "Vbr Title")
        #expect(try await call("RemoveTrack", "o", "/org/cloudplayerd/track/1").status == 0)
        // The removed track was playing: the next one takes over.
        #expect(try await eventually("Opus Title") { try await playerctl(bus, "metadata", "title") } == "Opus Title")
        #expect(try await property(bus, trackList, "Tracks") == "ao 1 \"/org/cloudplayerd/track/2\"")
        let gone = try await call("GoTo", "o", "/org/cloudplayerd/track/1")
        #expect(gone.status != 0)
        #expect(gone.stderr.contains("is not in the track list"))
        let badAfter = try await call("AddTrack", "sob", first.absoluteString, "/org/cloudplayerd/track/77", "false")
        #expect(badAfter.status != 0)
        #expect(try await playerctl(bus, "status") == "Playing")
        await stop(daemon, bus)
    }

    @Test("embedded cover art becomes a private local file behind mpris:artUrl", arguments: [Fixtures.File.artMP3, .artOpus])
    func coverArt(_ file: Fixtures.File) async throws {
        let cache = try Fixtures.shared.scratchDirectory()
        let (bus, daemon) = try await startDaemon(cache: cache)
        _ = try await playerctl(bus, "open", try await Fixtures.shared.url(file).absoluteString)
        let art = try await eventually("file:") { String(try await playerctl(bus, "metadata", "mpris:artUrl").prefix(5)) }
        #expect(art == "file:")
        let url = try #require(URL(string: try await playerctl(bus, "metadata", "mpris:artUrl")))
        #expect(url.path.hasPrefix(cache.appendingPathComponent("cloudplayerd/art").path))
        let stored = try Data(contentsOf: url)
        #expect(stored == (try Data(contentsOf: try await Fixtures.shared.url(.coverArt))))
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let folder = try FileManager.default.attributesOfItem(atPath: url.deletingLastPathComponent().path)
        #expect((folder[.posixPermissions] as? NSNumber)?.intValue == 0o700)
        await stop(daemon, bus)
    }

    @Test("properties have the types of the MPRIS spec")
    func propertyTypes() async throws {
        let (bus, daemon) = try await startPlaying(.opus)
        _ = try await eventually("Opus Title") { try await playerctl(bus, "metadata", "title") }
        let root = "org.mpris.MediaPlayer2"
        #expect(try await property(bus, root, "Identity") == "s \"cloudplayerd\"")
        #expect(try await property(bus, root, "CanQuit") == "b true")
        #expect(try await property(bus, root, "CanRaise") == "b false")
        #expect(try await property(bus, root, "HasTrackList") == "b true")
        #expect(try await property(bus, root, "SupportedUriSchemes") == #"as 4 "file" "http" "https" "cloudplayer""#)
        let mimeTypes = try await property(bus, root, "SupportedMimeTypes")
        #expect(["audio/mpeg", "audio/ogg", "audio/opus", "audio/flac", "audio/vorbis", "audio/wav", "audio/x-aiff"].allSatisfy { mimeTypes.contains("\"\($0)\"") }, "\(mimeTypes)")
        #expect(try await property(bus, Self.player, "PlaybackStatus") == "s \"Playing\"")
        #expect(try await property(bus, Self.player, "Rate") == "d 1")
        #expect(try await property(bus, Self.player, "CanControl") == "b true")
        #expect(try await property(bus, Self.player, "Position").hasPrefix("x "))
        let metadata = try await property(bus, Self.player, "Metadata")
        #expect(metadata.hasPrefix("a{sv} "))
        #expect(metadata.contains("\"mpris:trackid\" o \"/org/cloudplayerd/track/1\""))
        #expect(metadata.contains("\"mpris:length\" x 6000000"))
        #expect(metadata.contains("\"xesam:artist\" as 1 \"Opus Artist\""))
        #expect(metadata.contains("\"xesam:trackNumber\" i 7"))
        let playlists = "org.mpris.MediaPlayer2.Playlists"
        #expect(try await property(bus, playlists, "PlaylistCount") == "u 0")
        #expect(try await property(bus, playlists, "ActivePlaylist") == "(b(oss)) false \"/\" \"\" \"\"")
        // What GNOME Shell and KDE do first: GetAll on every interface, through GDBus.
        for interface in ["org.mpris.MediaPlayer2", Self.player, "org.mpris.MediaPlayer2.TrackList", playlists] {
            let all = try await bus.run("gdbus", ["call", "--address", bus.address, "--dest", Self.name, "--object-path", Self.path,
                                                  "--method", "org.freedesktop.DBus.Properties.GetAll", interface])
            #expect(all.status == 0, "GetAll \(interface): \(all.stderr)")
            #expect(all.stdout.hasPrefix("({"))
        }
        await stop(daemon, bus)
    }

    @Test("bad calls get D-Bus errors and the player keeps playing")
    func badCalls() async throws {
        let (bus, daemon) = try await startPlaying(.vbrMP3)
        func call(_ arguments: [String]) async throws -> ProcessResult {
            try await self.call(bus, arguments[0], Array(arguments.dropFirst()))
        }
        let http = try await call([Self.player, "OpenUri", "s", "gopher://example.org/a.mp3"])
        #expect(http.status != 0)
        #expect(http.stderr.contains("cannot open this URI"))
        let text = try await Fixtures.shared.url(.text)
        let notAudio = try await call([Self.player, "OpenUri", "s", text.absoluteString])
        #expect(notAudio.status != 0)
        #expect(notAudio.stderr.contains("cannot play notes.mp3: not an audio file"))
        let missing = try await call([Self.player, "OpenUri", "s", "file:///nonexistent/gone.opus"])
        #expect(missing.stderr.contains("cannot play gone.opus: no such file"))
        let huge = try await call([Self.player, "OpenUri", "s", "file:///" + String(repeating: "x", count: 100_000)])
        #expect(huge.status != 0)
        let wrongType = try await call([Self.player, "Seek", "s", "ten"])
        #expect(wrongType.status != 0)
        let badLoop = try await bus.run("busctl", ["--address=\(bus.address)", "set-property", Self.name, Self.path,
                                                   Self.player, "LoopStatus", "s", "Forever"])
        #expect(badLoop.status != 0)
        #expect(badLoop.stderr.contains("LoopStatus is None, Track or Playlist"))
        #expect(try await property(bus, Self.player, "LoopStatus") == "s \"Track\"")  // unchanged
        let unknown = try await bus.run("busctl", ["--address=\(bus.address)", "call", Self.name, "/no/such/object",
                                                   Self.player, "Play"])
        #expect(unknown.status != 0)
        // A stale track id and a position past the end do nothing.
        _ = try await call([Self.player, "SetPosition", "ox", "/org/cloudplayerd/track/99", "1000000"])
        _ = try await call([Self.player, "SetPosition", "ox", "/org/cloudplayerd/track/1", "999000000"])
        #expect(try await playerctl(bus, "status") == "Playing")
        #expect(try await playerctl(bus, "metadata", "title") == "Vbr Title")
        await stop(daemon, bus)
    }

    @Test("the spec's state rules: Seek below 0 clamps, past the end is Next, Rate 0 pauses, Volume below 0 is 0")
    func stateRules() async throws {
        // Debug: the commands and the status they met, printed if "Next while paused" fails again.
        let (bus, daemon) = try await startDaemon(["--log-level", "debug"])
        let first = try await Fixtures.shared.url(.vbrMP3)
        let second = try await Fixtures.shared.url(.opus)
        func call(_ arguments: String...) async throws -> ProcessResult {
            try await self.call(bus, arguments[0], Array(arguments.dropFirst()))
        }
        func set(_ name: String, _ type: String, _ value: String) async throws -> ProcessResult {
            try await bus.run("busctl", ["--address=\(bus.address)", "set-property", "--", Self.name, Self.path, Self.player, name, type, value])
        }
        // On repeat, so the 6 s track cannot end before the pause on a busy machine (it did: 8 s
        // between playing it and adding the second). Next, Previous and Seek past the end go to
        // the other track whatever the loop.
        _ = try await playerctl(bus, "loop", "Track")
        _ = try await playerctl(bus, "open", first.absoluteString)
        _ = try await call("org.mpris.MediaPlayer2.TrackList", "AddTrack", "sob", second.absoluteString, "/org/cloudplayerd/track/1", "false")
        _ = try await eventually("Vbr Title") { try await playerctl(bus, "metadata", "title") }
        _ = try await playerctl(bus, "pause")
        _ = try await eventually("Paused") { try await playerctl(bus, "status") }

        #expect(try await call(Self.player, "Seek", "x", "-60000000").status == 0)
        #expect(try await eventually("0.000000") { try await playerctl(bus, "position") } == "0.000000")
        #expect(try await call(Self.player, "Seek", "x", "600000000").status == 0)
        #expect(try await eventually("Opus Title") { try await playerctl(bus, "metadata", "title") } == "Opus Title")
        #expect(try await playerctl(bus, "status") == "Paused", "daemon log: \(daemon.errorSoFar())")  // Next while paused stays paused
        _ = try await playerctl(bus, "previous")
        #expect(try await eventually("Vbr Title") { try await playerctl(bus, "metadata", "title") } == "Vbr Title")
        _ = try await playerctl(bus, "next")
        #expect(try await eventually("Opus Title") { try await playerctl(bus, "metadata", "title") } == "Opus Title")

        #expect(try await set("Volume", "d", "-0.5").status == 0)
        #expect(try await eventually("d 0") { try await property(bus, Self.player, "Volume") } == "d 0")
        _ = try await playerctl(bus, "play")
        _ = try await eventually("Playing") { try await playerctl(bus, "status") }
        #expect(try await set("Rate", "d", "0").status == 0)
        #expect(try await eventually("Paused") { try await playerctl(bus, "status") } == "Paused")
        #expect(try await property(bus, Self.player, "Rate") == "d 1")
        // Stopped, Previous only changes the current track — and Metadata shows it.
        _ = try await playerctl(bus, "stop")
        _ = try await eventually("Stopped") { try await playerctl(bus, "status") }
        _ = try await playerctl(bus, "previous")
        // (the title it was heard with: the queue keeps what it learnt of a track)
        #expect(try await eventually("Vbr Title") { try await playerctl(bus, "metadata", "title") } == "Vbr Title")
        #expect(try await playerctl(bus, "status") == "Stopped")

        // A huge array of track ids: answered (unknown ids are left out), nothing breaks.
        let ids = (0..<5000).map { "/org/cloudplayerd/track/\($0)" }
        let many = try await bus.run("busctl", ["--address=\(bus.address)", "call", Self.name, Self.path,
                                                "org.mpris.MediaPlayer2.TrackList", "GetTracksMetadata", "ao", "\(ids.count)"] + ids)
        #expect(many.status == 0)
        #expect(many.stdout.hasPrefix("aa{sv} 2 "))
        await stop(daemon, bus)
    }
}

import Foundation
import Testing
import TestSupport

/// The clients users already have, over a cloud library (issue 28): a daemon whose one source is
/// a WebDAV server (rclone) holding the rig library, scanned through MPD's own `update`. mpc,
/// python-mpd2, ncmpcpp (in tmux) and Cantata (under Xvfb) browse it, search it and play a track
/// of it; what each showed is kept in the run's scratch folder (screens, a screenshot) and its
/// path printed. No answer or screen shows the server's password.
@Suite(.timeLimit(.minutes(5)))
struct MPDCloudClientsTests {
    /// A WebDAV server holding `MPDTools.library()` and a daemon over it as the source `cloud`.
    static func start(_ kind: WebDAVTestServer.Kind = .rclone) async throws -> (MPDDaemonRig, WebDAVTestServer) {
        let server = try await WebDAVTestServer(kind)
        let library = try await MPDTools.library()
        for entry in try FileManager.default.contentsOfDirectory(atPath: library.path) {
            try FileManager.default.copyItem(at: library.appendingPathComponent(entry), to: server.root.appendingPathComponent(entry))
        }
        let rig = try await MPDDaemonRig.start(extra: """

            [[source]]
            name = "cloud"
            type = "webdav"
            url = "\(server.baseURL.absoluteString)"
            username = "\(server.username)"
            password = "\(server.password)"
            """)
        let update = try await rig.mpc("update", "--wait")
        #expect(update.status == 0, "\(update.stderr)")
        // The tracks last a second: repeated, what plays is still playing when a client looks.
        #expect(try await rig.mpc("repeat", "on").status == 0)
        return (rig, server)
    }

    static let glacier = "cloud/Beta Ensemble/Quiet Rooms/02 Glacier.opus"

    /// Waits until the daemon plays `title` (read from `currentsong`) with its format known
    /// (`audio` in `status`: the first bytes came from the server and were decoded).
    static func waitForPlaying(_ rig: MPDDaemonRig, title: String) async throws -> Bool {
        try await eventually(within: 60) {
            let client = try rig.client()
            let status = try client.command("status"), song = try client.command("currentsong")
            return MPDSocketClient.value("state", in: status) == "play" && MPDSocketClient.value("audio", in: status) != nil
                && MPDSocketClient.value("Title", in: song) == title
        }
    }

    /// Saves what a client showed under the run's scratch folder and prints where; also into
    /// the folder MPD_CLIENT_SCREENS names, if set (the scratch folder goes with the run).
    static func keep(_ data: Data, as name: String) throws {
        let file = try ScratchSpace.directory().appendingPathComponent(name)
        try data.write(to: file)
        print("\(name): \(file.path)")
        if let folder = ProcessInfo.processInfo.environment["MPD_CLIENT_SCREENS"] {
            try data.write(to: URL(fileURLWithPath: folder).appendingPathComponent(name))
        }
    }

    @Test("mpc browses, searches, lists, adds and plays a cloud track; python-mpd2 browses and searches it; covers from the folder",
          arguments: WebDAVTestServer.Kind.allCases)
    func mpcAndPython(kind: WebDAVTestServer.Kind) async throws {
        let (rig, server) = try await Self.start(kind)
        defer { Task { await rig.stop() } }
        #expect(try await rig.mpc("ls").stdout == "cloud\n")
        let top = try await rig.mpc("ls", "cloud").stdout
        #expect(top == "cloud/untagged.mp3\ncloud/Alpha Band\ncloud/Beta Ensemble\n", "\(top)")
        #expect(try await rig.mpc("search", "title", "glacier").stdout == Self.glacier + "\n")
        #expect(try await rig.mpc("list", "album").stdout.split(separator: "\n").sorted() == MPDTools.albums.sorted().map { Substring($0) })
        let listed = try await rig.mpc("listall").stdout
        #expect(listed.split(separator: "\n").count == MPDTools.songCount, "\(listed)")
        try await rig.mpc("clear").expectSuccess()
        try await rig.mpc("add", Self.glacier).expectSuccess()
        try await rig.mpc("play").expectSuccess()
        #expect(try await Self.waitForPlaying(rig, title: "Glacier"), "daemon log: \(rig.daemon.errorSoFar().suffix(2000))")
        #expect(try await rig.mpc("current", "-f", "%artist% / %album% / %title%").stdout == "Beta Ensemble / Quiet Rooms / Glacier\n")

        let browse = try await MPDPythonClient.run("browse", port: rig.port)
        #expect(browse.status == 0, "\(browse.stderr)")
        // The albums, and the untagged file's empty one, as MPD 0.23 lists them.
        for line in ["lsinfo=1", "albums=\(MPDTools.albums.count + 1)", "queue=1", "command_list=2"] {
            #expect(browse.stdout.contains(line + "\n"), "\(browse.stdout)")
        }
        // MPD's albumart: the cover.jpg in the song's folder, fetched from the server.
        let cover = try Data(contentsOf: try await MPDTools.library().appendingPathComponent("Alpha Band/First Light/cover.jpg"))
        #expect(browse.stdout.contains("albumart=cloud/Alpha Band/First Light/01 Aurora.mp3 \(cover.count)\n"), "\(browse.stdout)")
        // Cantata asks for a folder's cover by the folder.
        let folderCover = try await MPDPythonClient.exchange(["albumart \"cloud/Alpha Band/First Light/\" 0"], port: rig.port)
        #expect(folderCover.contains("size: \(cover.count)\n"), "\(folderCover)")
        let everything = try rig.client().command("listallinfo")
        #expect(everything.filter { $0.hasPrefix("file: ") }.count == MPDTools.songCount)
        #expect(!(everything + [browse.stdout, listed]).joined().contains(server.password))
        try Self.keep(Data((browse.stdout + "\n" + listed).utf8), as: "mpd-cloud-mpc-python.txt")
    }

    @Test("ncmpcpp in tmux: the browser opens the cloud source's folders, finds Glacier, Enter plays it; the screens are kept")
    func ncmpcpp() async throws {
        let (rig, server) = try await Self.start()
        defer { Task { await rig.stop() } }
        let ncmpcpp = try await NcmpcppSession(port: rig.port)
        defer { Task { await ncmpcpp.stop() } }
        try await ncmpcpp.send("2")
        try await ncmpcpp.waitForScreen(containing: "[cloud]")
        // The browser's one entry, and each folder then, is opened by Enter; `/` finds an entry
        // in the list by its name.
        var screens: [String] = []
        for (find, shown) in [("Beta", "[Beta Ensemble]"), ("Quiet", "[Quiet Rooms]"), ("Glacier", "Beta Ensemble - Glacier")] {
            if screens.isEmpty {
                try await ncmpcpp.send("Enter")
            }
            screens.append(try await ncmpcpp.waitForScreen(containing: shown))
            try await ncmpcpp.send("/")
            try await ncmpcpp.send(find, literal: true)
            try await ncmpcpp.send("Enter")
            try await ncmpcpp.send("Enter")
        }
        #expect(try await Self.waitForPlaying(rig, title: "Glacier"), "daemon log: \(rig.daemon.errorSoFar().suffix(2000))")
        let playing = try await ncmpcpp.waitForScreen(containing: "Playing", "Glacier")
        screens.append(playing)
        #expect(!screens.joined().contains(server.password))
        try Self.keep(Data(screens.joined(separator: "\n----\n").utf8), as: "mpd-cloud-ncmpcpp.txt")
    }

    @Test("Cantata under Xvfb lists the cloud albums and plays through the server when told to by its MPRIS Play; a screenshot is kept")
    func cantata() async throws {
        let (rig, _) = try await Self.start()
        defer { Task { await rig.stop() } }
        try await rig.mpc("clear").expectSuccess()
        try await rig.mpc("add", Self.glacier).expectSuccess()
        let cantata = try await CantataSession(port: rig.port)
        defer { Task { await cantata.stop() } }
        try await cantata.waitForWindow()
        let albums = try await cantata.waitForLibrary(albums: Set(MPDTools.albums))
        #expect(albums == Set(MPDTools.albums + ["Unknown"]), "\(albums)")
        try await cantata.play()
        #expect(try await Self.waitForPlaying(rig, title: "Glacier"), "daemon log: \(rig.daemon.errorSoFar().suffix(2000))")
        let screenshot = try ScratchSpace.directory().appendingPathComponent("cantata.png")
        try await cantata.screenshot(to: screenshot)
        let png = try Data(contentsOf: screenshot)
        #expect(png.count > 10_000, "a \(png.count)-byte screenshot")
        try Self.keep(png, as: "mpd-cloud-cantata.png")
    }
}

private extension ProcessResult {
    func expectSuccess(_ location: SourceLocation = #_sourceLocation) {
        #expect(status == 0, "\(stderr)", sourceLocation: location)
    }
}

import Foundation

/// Cantata (Debian's), the Qt MPD client, on a virtual screen: a test starts it against a server,
/// waits for its window and for its library, and takes a screenshot, as a person would look.
///
/// Xvfb picks a free display itself (`-displayfd`: it writes the number once it accepts
/// clients, so nothing guesses a display number another test may hold). Cantata exits at once,
/// with status 0, when it finds no session bus, so it gets a private `DBusTestBus`. Its config
/// (`XDG_CONFIG_HOME/cantata/cantata.conf`) names the server and the version it was written by
/// — without `version` Cantata opens its first-run wizard instead of its main window. It keeps
/// the library it loaded in `XDG_DATA_HOME/cantata/library/HOST_PORT.sql` (sqlite), which is
/// what `waitForLibrary` reads. All three processes are `ServerProcess`es: they stop when the
/// test process ends.
public final class CantataSession: Sendable {
    public let display: String
    /// HOME, XDG_CONFIG_HOME, XDG_DATA_HOME, XDG_CACHE_HOME and XDG_RUNTIME_DIR are under it.
    public let home: URL
    private let port: Int
    private let xvfb: ServerProcess
    private let bus: DBusTestBus
    private let cantata: ServerProcess

    public init(port: Int, password: String? = nil) async throws {
        let home = try ScratchSpace.directory()
        let (xvfb, number) = try await Self.screens.startXvfb()
        let display = ":\(number)"
        let bus = try await DBusTestBus()
        let config = home.appendingPathComponent("config/cantata")
        let runtime = home.appendingPathComponent("runtime")
        for folder in [config, runtime, home.appendingPathComponent("data"), home.appendingPathComponent("cache")] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: runtime.path)
        try Self.config(port: port, password: password)
            .write(to: config.appendingPathComponent("cantata.conf"), atomically: true, encoding: .utf8)
        let environment = ["DISPLAY": display, "HOME": home.path, "DBUS_SESSION_BUS_ADDRESS": bus.address,
                           "XDG_CONFIG_HOME": home.appendingPathComponent("config").path,
                           "XDG_DATA_HOME": home.appendingPathComponent("data").path,
                           "XDG_CACHE_HOME": home.appendingPathComponent("cache").path,
                           "XDG_RUNTIME_DIR": runtime.path]
        cantata = try ServerProcess("cantata", command: "cantata", environment: environment)
        (self.display, self.home, self.port, self.xvfb, self.bus) = (display, home, port, xvfb, bus)
    }

    /// Starts Xvfb servers one at a time, each on a display number this process has not used
    /// before. With `-displayfd` alone two of them took display :0 here, also one after the
    /// other: a server stopping as the next one started unlinked the socket of the new :0, and
    /// the next Cantata "could not connect to display :0".
    private static let screens = VirtualScreens()

    /// Each start waits for the one before it to have its display (not a reentrant actor method:
    /// a chain of tasks).
    private actor VirtualScreens {
        private var last: Task<Void, Never>?
        /// The next display number to try: from 50 (above those a desktop session holds), in a
        /// block of 20 of this process's own (by its pid), so that two test processes side by
        /// side — or one starting as another ends, its servers still removing their sockets —
        /// do not take turns on the same numbers (a failure seen so: "could not connect to
        /// display :51" with a second run's servers on :50 and :51).
        private var next = 50 + Int(getpid() % 100) * 20

        func startXvfb() async throws -> (ServerProcess, Int) {
            let previous = last
            let mine = Task { () async throws -> (ServerProcess, Int) in
                await previous?.value
                return try await self.start()
            }
            last = Task { _ = try? await mine.value }
            return try await mine.value
        }

        /// An Xvfb on the next free number: one whose display another server holds (its lock
        /// file) ends at once, and the number after it is tried.
        private func start() async throws -> (ServerProcess, Int) {
            var problems = ""
            for _ in 0..<20 {
                let number = next
                next += 1
                let xvfb = try ServerProcess("Xvfb", command: "Xvfb :\(number) -displayfd 2 -nolisten tcp -screen 0 1280x800x24")
                // Ready once it writes its display's number (`-displayfd`), or ended.
                let settled = try await eventually(within: 60) {
                    xvfb.serverEnded || xvfb.errorSoFar().split(separator: "\n").contains("\(number)")
                }
                if settled && !xvfb.serverEnded { return (xvfb, number) }
                problems += xvfb.errorSoFar()
                await xvfb.stop()
            }
            throw TestSupportError("no Xvfb came up: \(problems)")
        }
    }

    private static func config(port: Int, password: String?) -> String {
        """
        [General]
        version=2.5.0
        currentConnection=
        page=LibraryPage
        fetchCovers=false

        [Connection]
        host=127.0.0.1
        port=\(port)
        passwd=\(password ?? "")

        """
    }

    /// Waits until Cantata shows a window (`xdotool search --onlyvisible --class cantata`) and
    /// returns the visible windows' names. Throws if Cantata ended first, or after `seconds`.
    @discardableResult
    public func waitForWindow(within seconds: Int = 120) async throws -> [String] {
        var names: [String] = []
        let shown = try await eventually(within: seconds) {
            if cantata.serverEnded { throw TestSupportError("Cantata ended: \(cantata.errorSoFar())") }
            let found = try await ChildProcess.run("xdotool", ["search", "--onlyvisible", "--class", "cantata", "getwindowname", "%@"],
                                                   environment: ["DISPLAY": display])
            names = found.stdout.split(separator: "\n").map(String.init)
            return found.status == 0 && !names.isEmpty
        }
        guard shown else { throw TestSupportError("Cantata showed no window on \(display): \(cantata.errorSoFar())") }
        return names
    }

    /// The albums in the library Cantata loaded and stored (empty before it stored any).
    public func libraryAlbums() async throws -> Set<String> {
        let database = home.appendingPathComponent("data/cantata/library/127.0.0.1_\(port).sql").path
        let query = """
            import json, os, sqlite3, sys
            path = sys.argv[1]
            if not os.path.exists(path):
                print("[]"); sys.exit(0)
            try:
                rows = sqlite3.connect(f"file:{path}?mode=ro", uri=True).execute("select distinct coalesce(album, albumId) from songs").fetchall()
            except sqlite3.Error:
                rows = []
            print(json.dumps([row[0] for row in rows if row[0]]))
            """
        let result = try await ChildProcess.check("python3", ["-c", query, database])
        let names = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String] ?? []
        return Set(names)
    }

    /// Waits until Cantata's stored library holds every one of `albums`; returns what it holds.
    @discardableResult
    public func waitForLibrary(albums: Set<String>, within seconds: Int = 120) async throws -> Set<String> {
        var held: Set<String> = []
        guard try await eventually(within: seconds, {
            if cantata.serverEnded { throw TestSupportError("Cantata ended: \(cantata.errorSoFar())") }
            held = try await libraryAlbums()
            return held.isSuperset(of: albums)
        }) else {
            throw TestSupportError("Cantata's library holds \(held.sorted()), not \(albums.sorted()): \(cantata.errorSoFar())")
        }
        return held
    }

    /// Cantata's MPRIS `Play`, as a media key or a desktop's media widget sends it (through
    /// playerctl on Cantata's bus): Cantata passes it on to its server as MPD's `play`.
    public func play() async throws {
        guard try await bus.waitForName("org.mpris.MediaPlayer2.cantata") else {
            throw TestSupportError("Cantata never took its MPRIS name: \(cantata.errorSoFar())")
        }
        let played = try await bus.run("playerctl", ["-p", "cantata", "play"])
        guard played.status == 0 else { throw TestSupportError("playerctl -p cantata play: \(played.stderr)") }
    }

    /// A PNG of the whole screen (ImageMagick's `import -window root`).
    public func screenshot(to file: URL) async throws {
        try await ChildProcess.check("import", ["-display", display, "-window", "root", file.path])
    }

    /// Ends Cantata, its bus and its screen now.
    public func stop() async {
        await cantata.stop()
        await bus.stop()
        await xvfb.stop()
    }
}

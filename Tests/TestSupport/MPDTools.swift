import Foundation

/// The python helpers in Tests/MPDTools (the logging proxy, the library maker, the python-mpd2
/// and raw-protocol clients), and the small tagged library every MPD rig test shares.
public enum MPDTools {
    /// Tests/MPDTools.
    public static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("MPDTools")

    /// The path of one helper script.
    public static func script(_ name: String) -> String {
        folder.appendingPathComponent(name).path
    }

    /// A library made once per test process by `make_library.py`: Alpha Band (First Light:
    /// Aurora, Basalt, Cinder as MP3, with a cover.jpg; Second Wind: Dune, Ember as FLAC), Beta
    /// Ensemble (Quiet Rooms: Fjord, Glacier as Opus) and an untagged.mp3 at the top. Tests
    /// must not change it: copy it to change it.
    public static func library() async throws -> URL {
        try await made.value
    }

    /// The albums, songs and top-level entries of `library()`, for tests to expect.
    public static let albums = ["First Light", "Second Wind", "Quiet Rooms"]
    public static let songCount = 8

    private static let made = Task<URL, any Error> {
        let folder = try ScratchSpace.directory().appendingPathComponent("music")
        try await ChildProcess.check("python3", [script("make_library.py"), folder.path])
        return folder
    }
}

import Base
import FoundationEssentials
import Glibc

/// The user's own playlists kept also as M3U files in `playlists/` beside the library database
/// (`$XDG_DATA_HOME/cloudplayerd/playlists/`). They are the one part of the library a scan
/// cannot rebuild: each is written (atomically) on every change, and read back into a new
/// database — one made after a damaged file was set aside, or deleted by hand.
package struct PlaylistMirror {
    /// What a file holds of one playlist: enough to make it again as it was, under its id (clients
    /// refer to playlists by id, so a rebuilt library must not give an id to another playlist).
    package struct Playlist: Sendable, Equatable {
        package var name: String
        package var id: Int64?
        package var pinned = false
        package var entries: [PlaylistEntry]

        package init(name: String, id: Int64? = nil, pinned: Bool = false, entries: [PlaylistEntry]) {
            self.name = name
            self.id = id
            self.pinned = pinned
            self.entries = entries
        }
    }

    /// Our own lines, which other M3U readers skip as comments.
    private static let idLine = "#CLOUDPLAYERD-ID:"
    private static let pinnedLine = "#CLOUDPLAYERD-PINNED"

    let folder: URL

    init(libraryFile: URL) {
        folder = libraryFile.deletingLastPathComponent().appendingPathComponent("playlists", isDirectory: true)
    }

    /// A file name for a playlist name: no path separators, control characters or leading dot,
    /// at most ~150 bytes. A name that had to change gets a hash of the whole name, so two names
    /// never share a file; a name that looks like a URL (it may carry a password) is only hashed.
    package static func fileName(for name: String) -> String {
        let hash = String(name.utf8.reduce(UInt64(0xcbf2_9ce4_8422_2325)) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }, radix: 16)
        if name.contains("://") { return "playlist-\(hash).m3u" }
        var safe = ""
        for character in name {
            let replaced = character == "/" || character == "\\" || character.unicodeScalars.contains { $0.properties.generalCategory == .control }
            guard safe.utf8.count + character.utf8.count <= 150 else { break }
            safe.append(replaced ? "_" : character)
        }
        if safe.hasPrefix(".") { safe = "_" + safe.dropFirst() }
        return (safe == name ? safe : "\(safe)-\(hash)") + ".m3u"
    }

    /// Writes one playlist unless its file says the same already (blocks on the disk: the
    /// library's own thread).
    func write(_ playlist: Playlist) throws {
        let text = Data(Self.m3u(playlist).utf8)
        let path = file(for: playlist.name)
        guard FileManager.default.contents(atPath: path.path) != text else { return }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try AtomicFile.write(text, to: path)
    }

    /// The file's text: the name in `#PLAYLIST:` (a file name cannot hold every name), the id
    /// and the offline keep in lines of our own, then each location as the library writes it,
    /// after its title.
    package static func m3u(_ playlist: Playlist) -> String {
        var text = "#EXTM3U\n#PLAYLIST:\(oneLine(playlist.name))\n"
        if let id = playlist.id { text += "\(idLine)\(id)\n" }
        if playlist.pinned { text += "\(pinnedLine)\n" }
        for entry in playlist.entries {
            if let title = entry.title { text += "#EXTINF:-1,\(oneLine(title))\n" }
            text += oneLine(entry.url) + "\n"
        }
        return text
    }

    func remove(name: String) {
        _ = unlink(file(for: name).path)
    }

    /// Every playlist in the folder.
    func read() -> [Playlist] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return files.filter { $0.hasSuffix(".m3u") && !$0.hasPrefix(".") }.sorted().compactMap { file in
            guard let data = FileManager.default.contents(atPath: folder.appendingPathComponent(file).path) else { return nil }
            return Self.parse(String(decoding: data, as: UTF8.self), fallbackName: String(file.dropLast(4)))
        }
    }

    package static func parse(_ text: String, fallbackName: String) -> Playlist {
        var playlist = Playlist(name: fallbackName, entries: [])
        var title: String?
        for line in text.split(whereSeparator: \.isNewline) {
            if line.hasPrefix("#PLAYLIST:") {
                playlist.name = String(line.dropFirst("#PLAYLIST:".count))
            } else if line.hasPrefix(idLine) {
                playlist.id = Int64(line.dropFirst(idLine.count)).flatMap { $0 > 0 ? $0 : nil }
            } else if line == pinnedLine {
                playlist.pinned = true
            } else if line.hasPrefix("#EXTINF:") {
                title = line.firstIndex(of: ",").map { String(line[line.index(after: $0)...]) }
            } else if !line.hasPrefix("#") {
                playlist.entries.append(PlaylistEntry(url: String(line), title: title, track: nil))
                title = nil
            }
        }
        return playlist
    }

    private func file(for name: String) -> URL {
        folder.appendingPathComponent(Self.fileName(for: name))
    }

    private static func oneLine(_ text: String) -> String {
        String(text.map { $0.isNewline ? " " : $0 })
    }
}

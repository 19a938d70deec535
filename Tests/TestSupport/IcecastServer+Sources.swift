import Foundation

/// The source clients a station uses, each started on a mount of this server and returned once
/// the mount is live (in `/status-json.xsl`): ffmpeg for one MP3 whose title the test sets
/// (`updateTitle`), ezstream for an MP3 playlist whose ID3 tags become each track's title,
/// ices2 for Ogg Vorbis files, each a new Ogg link with its own comments. All pace themselves to
/// real time, as a live station does.
extension IcecastServer {
    /// `ffmpeg -re` pushing `file` (MP3, copied as it is, without the ID3 tag and Xing frame
    /// ffmpeg's MP3 muxer would add) over Icecast's HTTP PUT, `audio/mpeg`; endless with `loop`.
    /// With `asUsersRun`, ffmpeg as its users run it (`ffmpeg -re -i FILE -c copy -f mp3 icecast://…`):
    /// its MP3 muxer's defaults, so the stream begins with an ID3v2.4 tag of the file's tags and
    /// cover, whose size it leaves 0 (it cannot seek back to write it), and the audio waits in its
    /// interleaving queue behind the cover's stream (up to 10 s, `max_interleave_delta`).
    public func startFFmpegSource(playing file: URL, mount: String = "/ffmpeg.mp3", name: String = "FFmpeg Radio",
                                  genre: String = "Test", loop: Bool = true, asUsersRun: Bool = false) async throws -> IcecastSource {
        let folder = try Fixtures.shared.scratchDirectory()
        let target = "icecast://source:\(sourcePassword)@127.0.0.1:\(port)\(mount)"
        let bare = ["-map", "0:a", "-map_metadata", "-1", "-write_xing", "0", "-id3v2_version", "0"]
        let arguments = ["-nostdin", "-loglevel", "warning", "-re"] + (loop ? ["-stream_loop", "-1"] : [])
            + ["-i", file.path, "-c", "copy"] + (asUsersRun ? [] : bare)
            + ["-f", "mp3", "-content_type", "audio/mpeg", "-ice_name", name, "-ice_genre", genre, "-ice_public", "0", target]
        let process = try ServerProcess("ffmpeg-source", command: #"ffmpeg "$@""#, arguments: arguments)
        return try await live(IcecastSource(.ffmpeg, mount: mount, folder: folder, process: process))
    }

    /// ezstream (its XML config, version 1.0) streaming `playlist`'s MP3 files as they are,
    /// announcing each track's "Artist - Title" from its tags as it starts; from the top again at
    /// the end with `loop`, else it ends. `-v`: it logs each track it starts ("streaming: …").
    public func startEzstream(playlist: [URL], mount: String = "/ezstream.mp3", name: String = "ezstream Radio",
                              genre: String = "Test", loop: Bool = true) async throws -> IcecastSource {
        let folder = try Fixtures.shared.scratchDirectory()
        let list = folder.appendingPathComponent("playlist.m3u"), config = folder.appendingPathComponent("ezstream.xml")
        try (playlist.map(\.path).joined(separator: "\n") + "\n").write(to: list, atomically: true, encoding: .utf8)
        try """
            <ezstream>
                <servers>
                    <server>
                        <protocol>HTTP</protocol>
                        <hostname>127.0.0.1</hostname>
                        <port>\(port)</port>
                        <password>\(Self.xml(sourcePassword))</password>
                        <tls>None</tls>
                    </server>
                </servers>
                <streams>
                    <stream>
                        <mountpoint>\(Self.xml(mount))</mountpoint>
                        <format>MP3</format>
                        <stream_name>\(Self.xml(name))</stream_name>
                        <stream_genre>\(Self.xml(genre))</stream_genre>
                    </stream>
                </streams>
                <intakes>
                    <intake>
                        <type>playlist</type>
                        <filename>\(Self.xml(list.path))</filename>
                        <stream_once>\(loop ? 0 : 1)</stream_once>
                    </intake>
                </intakes>
            </ezstream>
            """.write(to: config, atomically: true, encoding: .utf8)
        // It warns about a config others can read (the password is in it), and goes on.
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: config.path)
        let process = try ServerProcess("ezstream", command: #"ezstream "$@""#, arguments: ["-v", "-c", config.path])
        return try await live(IcecastSource(.ezstream, mount: mount, folder: folder, process: process))
    }

    /// ices2 (its playlist input) streaming `playlist`'s Ogg Vorbis files as they are, each a new
    /// Ogg link whose comments become the mount's title and artist; again from the top with
    /// `loop`, else it ends. ices2 refuses to play one file twice in a row ("Cannot play same
    /// file twice in a row") and exits after a few such refusals, so each entry is a link of its
    /// own in the source's folder, and a one-file loop lists its file twice.
    public func startIces(playlist: [URL], mount: String = "/ices.ogg", name: String = "ices2 Radio", genre: String = "Test",
                          loop: Bool = true) async throws -> IcecastSource {
        let folder = try Fixtures.shared.scratchDirectory()
        let list = folder.appendingPathComponent("playlist.txt"), config = folder.appendingPathComponent("ices.xml")
        let log = folder.appendingPathComponent("ices.log")
        let entries = playlist.count == 1 && loop ? playlist + playlist : playlist
        let links = try entries.enumerated().map { index, file in
            let link = folder.appendingPathComponent("\(index + 1)-\(file.lastPathComponent)")
            try FileManager.default.createSymbolicLink(at: link, withDestinationURL: file)
            return link.path
        }
        try (links.joined(separator: "\n") + "\n").write(to: list, atomically: true, encoding: .utf8)
        try """
            <?xml version="1.0"?>
            <ices>
                <background>0</background>
                <logpath>\(Self.xml(folder.path))</logpath>
                <logfile>ices.log</logfile>
                <loglevel>3</loglevel>
                <consolelog>0</consolelog>
                <stream>
                    <metadata>
                        <name>\(Self.xml(name))</name>
                        <genre>\(Self.xml(genre))</genre>
                        <description>\(Self.xml(name))</description>
                    </metadata>
                    <input>
                        <module>playlist</module>
                        <param name="type">basic</param>
                        <param name="file">\(Self.xml(list.path))</param>
                        <param name="random">0</param>
                        <param name="restart-after-reread">0</param>
                        <param name="once">\(loop ? 0 : 1)</param>
                    </input>
                    <instance>
                        <hostname>127.0.0.1</hostname>
                        <port>\(port)</port>
                        <password>\(Self.xml(sourcePassword))</password>
                        <mount>\(Self.xml(mount))</mount>
                        <yp>0</yp>
                        <reconnectdelay>1</reconnectdelay>
                        <reconnectattempts>5</reconnectattempts>
                    </instance>
                </stream>
            </ices>
            """.write(to: config, atomically: true, encoding: .utf8)
        let process = try ServerProcess("ices2", command: #"ices2 "$@""#, arguments: [config.path])
        return try await live(IcecastSource(.ices2, mount: mount, folder: folder, logFile: log, process: process))
    }

    /// Returns `source` once its mount is live; stops it and throws if it never goes live.
    private func live(_ source: IcecastSource) async throws -> IcecastSource {
        do {
            try await waitForMount(source.mount, source: source)
            return source
        } catch {
            await source.stop()
            throw error
        }
    }

    /// `text` with XML's five special characters escaped, for a config's element text.
    static func xml(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "'", with: "&apos;")
    }
}

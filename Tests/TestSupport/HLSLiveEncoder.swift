import Foundation

/// A live HLS stream being made in real time into a folder of an `HLSServer`, as a station's
/// encoder makes one: a sliding playlist without EXT-X-ENDLIST whose media sequence grows as new
/// segments are added and old ones deleted. Stopped with `stop()`, or when the test process ends
/// (a `ServerProcess`); stopped, the playlist stays as it was and nothing more comes — a station
/// that went quiet.
///
/// The audio is `source`: a tone stepping up 100 Hz a segment from 400 Hz, round in 8 steps, so
/// a stretch of it tells (give or take a cycle) which segment it is from.
public final class HLSLiveEncoder: Sendable {
    public enum Format: String, Sendable {
        /// ffmpeg's HLS muxer (`-re`): MPEG-TS segments `segN.ts`, AAC-LC 128 kbit/s.
        case tsAAC = "live-ts"
        /// hls_packed.py `--live`: packed-audio segments `segN.aac` (ID3 PRIV timestamp, and
        /// `titles`), of an ADTS file of one cycle of the tone played again and again.
        case packedAudio = "live-packed"
    }

    public let format: Format
    /// The live playlist (`index.m3u8`) on the server.
    public let playlistURL: URL
    /// The stream's folder in the server's root.
    public let folder: URL
    /// The folder's path on the server: a request's path is this, "/", the file's name.
    public let path: String
    public let source: HLSToneSource
    public let segmentSeconds: Int
    /// Segments the playlist lists once it is full.
    public let listSize: Int
    /// For `.packedAudio`: from which segment (counted from the first made, 0) on each title is carried.
    public let titles: [HLSFixtures.Title]
    private let process: ServerProcess

    /// The live packed-audio stream's titles: a new song every 4 segments, for three songs.
    public static let packedTitles = [
        HLSFixtures.Title(segment: 0, artist: "Live Artist A", title: "Live Song 1"),
        HLSFixtures.Title(segment: 4, artist: "Live Artist B", title: "Live Song 2"),
        HLSFixtures.Title(segment: 8, artist: "Live Artist C", title: "Live Sóng 3"),
    ]

    /// Starts the encoder in a new folder of `server`, and returns once the playlist lists its
    /// first segment.
    public init(_ format: Format = .tsAAC, on server: HLSServer, segmentSeconds: Int = 1, listSize: Int = 4,
                titles: [HLSFixtures.Title] = HLSLiveEncoder.packedTitles) async throws {
        let name = "\(format.rawValue)-\(UUID().uuidString.prefix(8).lowercased())"
        let folder = server.root.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let source = HLSToneSource(seconds: nil, partSeconds: Double(segmentSeconds), cycle: 8)
        let playlist = folder.appendingPathComponent("index.m3u8")
        let process: ServerProcess
        switch format {
        case .tsAAC:
            process = try ServerProcess("hls-live", command: #"ffmpeg "$@""#, arguments: [
                "-nostdin", "-loglevel", "error", "-re",
            ] + source.ffmpegInput + [
                "-c:a", "aac", "-b:a", "128k", "-f", "hls", "-hls_time", "\(segmentSeconds)", "-hls_list_size", "\(listSize)",
                "-hls_flags", "delete_segments+omit_endlist+temp_file",
                "-hls_segment_filename", folder.appendingPathComponent("seg%d.ts").path, playlist.path,
            ])
        case .packedAudio:
            // One cycle of the tone as ADTS, made outside the served folder.
            let adts = try ScratchSpace.directory().appendingPathComponent("cycle.aac")
            let cycle = HLSToneSource(seconds: Double(8 * segmentSeconds), partSeconds: Double(segmentSeconds))
            try await ChildProcess.check("ffmpeg", ["-nostdin", "-loglevel", "error"] + cycle.ffmpegInput
                                         + ["-c:a", "aac", "-b:a", "128k", "-f", "adts", adts.path])
            process = try ServerProcess("hls-live-packed", command: #"python3 "$@""#, arguments: [
                HLSFixtures.packer.path, "--live", "--adts", adts.path, "--out", folder.path,
                "--segment-seconds", "\(segmentSeconds)", "--list-size", "\(listSize)",
            ] + HLSFixtures.titleArguments(titles))
        }
        (self.format, self.folder, path, self.source, self.segmentSeconds, self.listSize, self.titles, self.process)
            = (format, folder, "/\(name)", source, segmentSeconds, listSize, format == .packedAudio ? titles : [], process)
        playlistURL = server.url("\(name)/index.m3u8")
        do {
            try await waitForSegments(1)
        } catch {
            await process.stop()
            throw error
        }
    }

    /// The playlist as it is now; nil before the first segment.
    public func playlist() -> HLSPlaylistSnapshot? {
        HLSPlaylistSnapshot(contentsOf: folder.appendingPathComponent("index.m3u8"))
    }

    /// Waits until the playlist has listed `count` segments in all (`segmentsMade`: its media
    /// sequence and the ones it lists), and returns it. Throws when the encoder ended, and after
    /// `seconds`, a bound only a failure reaches.
    @discardableResult
    public func waitForSegments(_ count: Int, within seconds: Int = 60) async throws -> HLSPlaylistSnapshot {
        var last: HLSPlaylistSnapshot?
        let reached = try await eventually(within: seconds) {
            last = playlist()
            if let last, last.segmentsMade >= count { return true }
            if process.serverEnded { throw TestSupportError("the \(format) encoder ended: \(process.errorSoFar())") }
            return false
        }
        guard reached, let last else {
            throw TestSupportError("the \(format) playlist did not reach \(count) segments in \(seconds) s "
                                   + "(it has \(last.map { "\($0.segmentsMade)" } ?? "none")): \(process.errorSoFar())")
        }
        return last
    }

    /// A file's path as a request to the server names it.
    public func requestPath(_ name: String) -> String { "\(path)/\(name)" }

    /// Stops the encoder now: the playlist stays as it is, without EXT-X-ENDLIST — a station
    /// gone quiet, whose client waits for segments that never come.
    public func stop() async {
        await process.stop()
    }

    /// Stops the encoder and ends the stream as an event that is over does: EXT-X-ENDLIST is
    /// added to the playlist (at once, whole), and a client plays what is listed and stops.
    @discardableResult
    public func end() async throws -> HLSPlaylistSnapshot {
        await process.stop()
        guard let last = playlist() else { throw TestSupportError("the \(format) stream has no playlist to end") }
        let list = folder.appendingPathComponent("index.m3u8")
        try ((last.lines + ["#EXT-X-ENDLIST"]).joined(separator: "\n") + "\n").write(to: list, atomically: true, encoding: .utf8)
        guard let ended = HLSPlaylistSnapshot(contentsOf: list) else { throw TestSupportError("the ended playlist does not read back") }
        return ended
    }
}

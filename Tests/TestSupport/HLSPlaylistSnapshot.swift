import Foundation

/// What a media playlist file says at one moment, read just far enough for the rig to know
/// what it made and to watch a live one slide: its media sequence, segments, durations and
/// whether it ended. Not a parser for the player to be checked against — only tags ffmpeg and
/// hls_packed.py write are read, and the rest is kept as lines.
public struct HLSPlaylistSnapshot: Sendable, Equatable {
    /// EXT-X-MEDIA-SEQUENCE (0 when absent).
    public let mediaSequence: Int
    /// The segments' URIs, in order.
    public let segments: [String]
    /// Their EXTINF durations.
    public let durations: [Double]
    /// EXT-X-ENDLIST is there: nothing will be added.
    public let ended: Bool
    public let lines: [String]

    /// Nil when `text` is not a playlist (no `#EXTM3U` first).
    public init?(_ text: String) {
        let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
        guard lines.first == "#EXTM3U" else { return nil }
        var sequence = 0, segments: [String] = [], durations: [Double] = [], ended = false
        for line in lines {
            if line.hasPrefix("#EXT-X-MEDIA-SEQUENCE:") {
                sequence = Int(line.dropFirst("#EXT-X-MEDIA-SEQUENCE:".count)) ?? 0
            } else if line.hasPrefix("#EXTINF:") {
                durations.append(Double(line.dropFirst("#EXTINF:".count).prefix { $0 != "," }) ?? 0)
            } else if line == "#EXT-X-ENDLIST" {
                ended = true
            } else if !line.isEmpty && !line.hasPrefix("#") {
                segments.append(line)
            }
        }
        (mediaSequence, self.segments, self.durations, self.ended, self.lines) = (sequence, segments, durations, ended, lines)
    }

    /// Reads the file at `url`; nil when it is not there (yet) or not a playlist.
    public init?(contentsOf url: URL) {
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return nil }
        self.init(text)
    }

    /// Segments made so far in all: the media sequence and those listed (a live playlist has
    /// dropped the first `mediaSequence` of them).
    public var segmentsMade: Int { mediaSequence + segments.count }
}

import FoundationEssentials

/// An HLS playlist (RFC 8216): a master playlist, which lists variant streams, or a media
/// playlist, which lists segments. Playlists come from servers, so they are read strictly but
/// bounded: a clear `ParseError` for what breaks the format, never a crash or unbounded memory.
package enum HLSPlaylist: Sendable, Equatable {
    case master(HLSMasterPlaylist)
    case media(HLSMediaPlaylist)

    /// Real playlists are kilobytes; a live one with a long window perhaps a megabyte.
    package static let maxBytes = 4 << 20
    package static let maxSegments = 100_000
    /// The longest segment (and target duration) taken, in seconds: a day. Longer is no stream,
    /// and a length of 10^31 s would overflow every count of frames made from it.
    package static let longestSegment = 86_400.0

    /// Reads a playlist; `base` is its own URL, against which its URIs are resolved.
    package static func parse(_ bytes: [UInt8], base: URL) throws -> HLSPlaylist {
        guard bytes.count <= maxBytes else {
            throw ParseError.unsupported("an HLS playlist of \(bytes.count) bytes (more than \(maxBytes))")
        }
        let lines = HLSLine.lines(of: TextDecoding.document(bytes))
        guard let first = lines.first, first.text == "#EXTM3U" else {
            throw ParseError.malformed("an HLS playlist must begin with #EXTM3U")
        }
        let body = lines.dropFirst()
        let isMaster = body.contains { $0.tag == "EXT-X-STREAM-INF" || $0.tag == "EXT-X-MEDIA" }
        guard isMaster else { return .media(try HLSMediaPlaylist(lines: body, base: base)) }
        if let segment = body.first(where: { $0.tag == "EXTINF" }) {
            throw segment.error("#EXTINF in a master playlist (one with #EXT-X-STREAM-INF or #EXT-X-MEDIA)")
        }
        return .master(try HLSMasterPlaylist(lines: body, base: base))
    }
}

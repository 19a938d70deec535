import FoundationEssentials
import Model

/// What an HLS stream fetches, and how: the loader places each URL as a link of the stream's
/// playlist, `track` (`SourceSet.location(ofLink:in:)`: a segment on the playlist's own source
/// goes with its credentials, one elsewhere without, and one a remote playlist names on this
/// machine or its network not at all) and decides what is cached. The seam lets the producer run in a task of its own while the loader owns the
/// sources, the cache and the network.
protocol HLSAccess: Sendable {
    /// A playlist, whole and fresh (a live one changes every few seconds; never cached).
    func playlist(_ url: URL, of track: TrackLocation) async throws -> FetchedDocument

    /// A segment's bytes (`range`: a sub-range, `#EXT-X-BYTERANGE`). `keep`: a segment of a
    /// playlist that ends (video on demand) goes through the cache, so a seek back, a replay or
    /// an offline replay fetches nothing again; a live one is fetched and let go.
    func segment(_ url: URL, of track: TrackLocation, range: Range<Int64>?, keep: Bool) async throws -> [UInt8]

    /// The 16 bytes of an AES-128 key (`#EXT-X-KEY`), never cached on disk, never logged.
    func key(_ url: URL, of track: TrackLocation) async throws -> [UInt8]
}

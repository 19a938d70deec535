import FoundationEssentials
import Model

/// What an HLS stream fetches, and how: the loader places each URL among the sources (a
/// segment on a configured server goes with that source's credentials) and decides what is
/// cached. The seam lets the producer run in a task of its own while the loader owns the
/// sources, the cache and the network.
protocol HLSAccess: Sendable {
    /// A playlist, whole and fresh (a live one changes every few seconds; never cached).
    func playlist(_ url: URL) async throws -> FetchedDocument

    /// A segment's bytes (`range`: a sub-range, `#EXT-X-BYTERANGE`). `keep`: a segment of a
    /// playlist that ends (video on demand) goes through the cache, so a seek back, a replay or
    /// an offline replay fetches nothing again; a live one is fetched and let go.
    func segment(_ url: URL, range: Range<Int64>?, keep: Bool) async throws -> [UInt8]

    /// The 16 bytes of an AES-128 key (`#EXT-X-KEY`), never cached on disk, never logged.
    func key(_ url: URL) async throws -> [UInt8]
}

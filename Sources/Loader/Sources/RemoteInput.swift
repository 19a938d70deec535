import Model
import NIOHTTP1

/// How a remote source's bytes are fetched: one HTTP request at a time, with its credentials.
/// The loader does the rest — ranges, `If-Range`, retries, the cache — the same for every source.
///
/// An input a reload lets go is never shut down by the loader: downloads, readers and scans may
/// still hold it. It must close its connections itself when the last of them lets go of it (an
/// `HTTPTransport` does, when it is released).
package protocol RemoteInput: Sendable {
    /// The source's name, for errors and logs.
    var name: String { get }

    /// Length, version and type of a track, without reading it (HEAD, PROPFIND, a provider's
    /// metadata call).
    nonisolated(nonsending) func describe(_ location: TrackLocation) async throws -> ResourceInfo

    /// Sends GET for a track with these headers (Range, If-Range, If-None-Match) and returns the
    /// answer, redirects followed — credentials only where they belong.
    nonisolated(nonsending) func get(_ location: TrackLocation, headers: HTTPHeaders) async throws -> HTTPAnswer

    /// The server a track is on: one that ignores `Range` is remembered by this.
    func server(of location: TrackLocation) -> String

    /// The track started playing (`heard` false), or has been heard — half of it, or four
    /// minutes: a server that keeps play counts and "now playing" (Subsonic's `scrobble`) is
    /// told. Most sources have no one to tell.
    nonisolated(nonsending) func played(_ location: TrackLocation, heard: Bool) async throws

    /// A track's cover art as the source keeps it apart from the file (Subsonic's
    /// `getCoverArt`); nil when it has none. Art embedded in a file needs no source's help.
    nonisolated(nonsending) func artwork(_ location: TrackLocation) async throws -> Artwork?

    /// Closes its connections.
    func shutdown() async

    /// Whether an answer without a length is a whole file made as it is sent (a Subsonic
    /// transcode), gathered and cached once whole; otherwise it is a live stream (a station).
    func answersWithoutLengthEnd(_ location: TrackLocation) -> Bool

    /// Whether a track is a live stream whatever its answer says (a `radio` source's station).
    func isLive(_ location: TrackLocation) -> Bool
}

extension RemoteInput {
    package func answersWithoutLengthEnd(_ location: TrackLocation) -> Bool { false }
    package func isLive(_ location: TrackLocation) -> Bool { false }
    package nonisolated(nonsending) func played(_ location: TrackLocation, heard: Bool) async throws {}
    package nonisolated(nonsending) func artwork(_ location: TrackLocation) async throws -> Artwork? { nil }
}

import Foundation

/// Turns a track's location into a `ByteSource`.
///
/// It runs on a thread of its own because opening files and writing cache files (cover art
/// now, downloads later) are blocking system calls that must stay off the cooperative pool.
public actor LoaderActor {
    private let executor = ThreadExecutor(name: "loader")

    public nonisolated var unownedExecutor: UnownedSerialExecutor {
        executor.asUnownedSerialExecutor()
    }

    private let artwork: ArtworkCache

    /// `artworkDirectory`: where embedded cover art is written (default: the user's cache).
    public init(artworkDirectory: URL? = nil) {
        artwork = ArtworkCache(directory: artworkDirectory ?? ArtworkCache.defaultDirectory)
    }

    deinit {
        executor.shutdown()
    }

    /// A local file holding `art`, for MPRIS's `mpris:artUrl`.
    public func storeArtwork(_ art: Artwork) throws -> URL {
        try artwork.store(art)
    }

    public func open(_ url: URL) throws -> any ByteSource {
        guard url.isFileURL else { throw LoaderError.unsupportedScheme(url.scheme ?? "") }
        return try FileByteSource(path: url.path)
    }
}

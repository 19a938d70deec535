import Base
import Cache
import FoundationEssentials
import Glibc
import Model

/// The playlists of HLS streams that end (video on demand), kept beside the cache: their segments
/// are in the cache, and played again offline they need their playlists too. A live playlist is
/// never kept: it is stale in seconds. Named by a hash of the URL, as cache entries are — never by
/// the URL, which may carry credentials.
struct KeptPlaylists: Sendable {
    let directory: URL

    init(cacheDirectory: URL) {
        directory = cacheDirectory.appendingPathComponent("hls")
    }

    private func file(for uri: String) -> URL {
        directory.appendingPathComponent(SparseCache.identity(of: uri).name + ".m3u8")
    }

    /// Keeps `bytes` as the playlist at `uri`; a failure to write only costs offline playing.
    func keep(_ bytes: [UInt8], for uri: String) async {
        let (folder, file) = (directory, file(for: uri))
        try? await BlockingPool.shared.run {
            mkdir(folder.path, 0o700)
            try AtomicFile.write(bytes, to: file, mode: 0o600, syncingFolder: false)
        }
    }

    /// The playlist kept for `uri`, if one was.
    func kept(for uri: String) async -> [UInt8]? {
        let file = file(for: uri)
        return try? await BlockingPool.shared.run { () -> [UInt8]? in
            guard access(file.path, F_OK) == 0 else { return nil }
            let source = try FileByteSource(path: file.path)
            return try source.readBytes(in: 0..<(source.length ?? 0))
        }
    }

    /// Forgets every kept playlist (the cache was cleared: their segments are gone), on the
    /// blocking pool.
    func removeAll() {
        let directory = directory
        Task { try? await BlockingPool.shared.run { try FileManager.default.removeItem(at: directory) } }
    }
}

import Base
import Cache
import Config
import Foundation
import Logging
import Model
import Parsers

/// Turns a track's location into a `ByteSource`: a local file, or a remote file read through the
/// sparse cache with the credentials of the source whose root covers it.
///
/// It runs on a thread of its own: downloads write and sync cache files, and secrets may come
/// from commands — blocking calls that must stay off the cooperative pool. Every download task
/// it starts inherits that thread.
package actor LoaderActor {
    private let executor = ThreadExecutor(name: "loader")

    package nonisolated var unownedExecutor: UnownedSerialExecutor {
        executor.asUnownedSerialExecutor()
    }

    package private(set) var configuration: Configuration
    private let artwork: ArtworkCache
    let cache: SparseCache
    let logger = Logger(label: "cloudplayerd.loader")
    private var sources: [String: HTTPSource] = [:]
    /// Sources of an earlier configuration: downloads may still use them; closed at shutdown.
    private var retired: [HTTPSource] = []
    /// Remote files in use, by cache name. Dropped when no one reads or wants them.
    private var resources: [String: RemoteResource] = [:]
    /// The next track's resource, kept from eviction until the next prefetch.
    private var prefetched: RemoteResource?
    private var isShutDown = false
    /// Files of pinned playlists (by cache name): never evicted.
    var keptNames: Set<String> = []

    /// `artworkDirectory`: where embedded cover art is written (default: the user's cache).
    package init(configuration: Configuration = Configuration(), artworkDirectory: URL? = nil) {
        self.configuration = configuration
        artwork = ArtworkCache(directory: artworkDirectory ?? configuration.cacheDirectory.appendingPathComponent("art"))
        cache = SparseCache(directory: configuration.cacheDirectory.appendingPathComponent("data"), limit: configuration.cacheLimit)
    }

    deinit {
        executor.shutdown()
    }

    /// Ends every download and closes the network clients.
    package func shutdown() async {
        isShutDown = true
        for resource in resources.values {
            resource.commit()  // what arrived is kept for the next run
            resource.fail(.cancelled)
        }
        resources = [:]
        for source in Array(sources.values) + retired { await source.shutdown() }
        sources = [:]
        retired = []
    }

    /// Takes a new configuration (SIGHUP): new requests use its sources and credentials. The
    /// cache folder and size stay as they were until a restart.
    package func reload(_ new: Configuration) {
        var new = new
        new.cacheDirectory = configuration.cacheDirectory
        new.cacheLimit = configuration.cacheLimit
        configuration = new
        retired += sources.values
        sources = [:]
    }

    /// A local file holding `art`, for MPRIS's `mpris:artUrl`.
    package func storeArtwork(_ art: Artwork) throws -> URL {
        try artwork.store(art)
    }

    /// Opens `url` for reading. `waiting` hears when a read starts and stops waiting for the
    /// network (buffering).
    package func open(_ url: URL, waiting: (@Sendable (Bool) -> Void)? = nil) async throws -> any ByteSource {
        try await mediaSource(for: url).open(url, with: self, waiting: waiting)
    }

    /// Starts fetching the head and tail of `url` (the next track), so it starts without a wait.
    package func prefetch(_ url: URL) async {
        guard ["http", "https"].contains(url.scheme?.lowercased() ?? "") else { return }
        prefetched?.unpin()
        do {
            let resource = try await resource(for: url)
            prefetched = resource
            resource.prefetch()
        } catch {
            logger.debug("prefetch failed", metadata: ["reason": "\(error)"])
        }
    }

    /// Reads exactly `range` of `url` — through the cache for a remote file, fetching only its
    /// holes and nothing around them (a library scan reads heads and tails this way, and the
    /// bytes stay for the first play). `known`: length and version a folder listing just gave,
    /// which spares a request.
    ///
    /// From a server that ignores `Range`, bytes more than `wholeFileSlack` past those already
    /// here are refused with `wholeFileOnly`: the stream from the start would bring the whole file.
    package func bytes(in range: Range<Int64>, of url: URL, known: ResourceInfo? = nil) async throws -> [UInt8] {
        if url.isFileURL { return try LocalSource.bytes(in: range, of: url) }
        let resource = try await resource(for: url, known: known)
        if resource.source.ignoresRanges(url), range.lowerBound > resource.presentRun(from: 0) + Self.wholeFileSlack {
            throw LoaderError.wholeFileOnly
        }
        // Wanted at once, before anything else runs on the loader: a wanted resource is never
        // dropped as idle (a second one on the same cache files would not know the first).
        let (clamped, version) = try resource.want(range)
        try await resource.wait(for: clamped, version: version)
        return try resource.copy(clamped)
    }

    /// How far past its unbroken head a file from a server that ignores `Range` is streamed for
    /// `bytes(in:of:known:)`: more of the head (a large tag) always, a tail only of a small file.
    static let wholeFileSlack: Int64 = 64 << 10

    /// The entries of a WebDAV folder, one level deep.
    package func list(_ folder: URL) async throws -> [DAVEntry] {
        guard let source = try source(for: folder) as? WebDAVSource else {
            throw LoaderError.configuration("\(folder.host ?? "this server") is not a WebDAV source in the config file")
        }
        return try await source.list(folder)
    }

    /// A small file whole (a feed, a playlist file); nil when the server says it still has
    /// `validator`. A local file is read from disk.
    package func document(_ url: URL, limit: Int = 16 << 20, ifNoneMatch validator: String? = nil) async throws -> FetchedDocument? {
        if url.isFileURL {
            let bytes = try LocalSource.bytes(in: 0..<Int64(limit) + 1, of: url)
            guard bytes.count <= limit else { throw LoaderError.badResponse("a document larger than \(limit >> 20) MiB") }
            return FetchedDocument(bytes: bytes, validator: nil)
        }
        return try await source(for: url).document(url, limit: limit, ifNoneMatch: validator)
    }

    /// Whether every byte of `url` is in the cache. Only reads the record: asking must not count
    /// as a use (LRU) nor touch the entry.
    package func isCached(_ url: URL) -> Bool {
        let (name, check) = SparseCache.identity(of: url)
        if let resource = resources[name] { return resource.isComplete }
        guard let stored = cache.stored(name: name), stored.check == check else { return false }
        return stored.ranges.contains(0..<stored.length)
    }

    /// The source that reads `url`: the disk, or the configured server with the longest
    /// matching root, else the open web (no credentials).
    func mediaSource(for url: URL) throws -> any MediaSource {
        switch url.scheme?.lowercased() {
        case "file"?: LocalSource()
        case "http"?, "https"?: try source(for: url)
        default: throw LoaderError.unsupportedScheme(url.scheme ?? "")
        }
    }

    private func source(for url: URL) throws -> HTTPSource {
        guard !isShutDown else { throw LoaderError.cancelled }
        let configured = configuration.source(for: url)
        let key = configured?.name ?? ""
        if let known = sources[key] { return known }
        let kind: HTTPSource.Type = configured?.kind == .webdav ? WebDAVSource.self : HTTPSource.self
        let source = try kind.init(configuration: configured, readTimeout: configuration.readTimeout)
        sources[key] = source
        return source
    }

    /// The shared resource for `url`, its length and version known (from the cache, or from the
    /// first answer of the server).
    func resource(for url: URL, from source: HTTPSource? = nil, known: ResourceInfo? = nil) async throws -> RemoteResource {
        guard !isShutDown else { throw LoaderError.cancelled }
        let (name, _) = SparseCache.identity(of: url)
        dropUnused()
        let resource: RemoteResource
        if let known = resources[name] {
            resource = known
        } else {
            try cache.prepare()
            resource = RemoteResource(url: url, source: try source ?? self.source(for: url), cache: cache, known: known) { [weak self] resource in
                guard let self else { return }
                Task { await self.pump(resource) }
            }
            resources[name] = resource
            if resource.currentInfo == nil {
                Task { await self.download(nil, of: resource, version: 0) }
            } else if known == nil {  // what a listing just said needs no second asking
                Task { await self.revalidate(resource) }
            }
        }
        try await resource.waitForInfo()
        cache.trimIfNeeded(pinned: pinnedNames)
        return resource
    }

    private func dropUnused() {
        // A resource with downloads in flight stays: a second one on the same files would not
        // know what the first is fetching.
        resources = resources.filter { !$0.value.isIdle || $0.value === prefetched }
    }

    /// Starts the downloads the resource's plan asks for (even for a resource no longer listed:
    /// a reader may still wait on it).
    private func pump(_ resource: RemoteResource) {
        guard !isShutDown else { return }
        let (chunks, version) = resource.plan()
        for chunk in chunks {
            Task { await self.download(chunk, of: resource, version: version) }
        }
    }

    /// Asks the server (HEAD, or PROPFIND for WebDAV) whether a copy cached in an earlier run is
    /// still its current version, without holding up playback: cached bytes play at once, and
    /// with no network at all. An outdated copy plays on for whoever is reading it and is then
    /// forgotten, so the next play fetches the new version.
    private func revalidate(_ resource: RemoteResource) async {
        guard let known = resource.currentInfo else { return }
        do {
            let fresh = try await resource.source.describe(resource.url)
            guard fresh.length != known.length || (fresh.validator != nil && known.validator != nil && fresh.validator != known.validator) else { return }
            logger.info("cached copy is outdated; the new version will be fetched", metadata: ["source": "\(resource.source.name)"])
            resource.forgetCachedCopy()
            if resources[resource.name] === resource && !resource.isPinned { resources[resource.name] = nil }
        } catch {
            logger.debug("cached copy not revalidated", metadata: ["source": "\(resource.source.name)", "reason": "\(error)"])
        }
    }

    /// Cache entries in use (read, wanted, or downloading): never evicted.
    var pinnedNames: Set<String> {
        Set(resources.values.filter { !$0.isIdle || $0 === prefetched }.map(\.name)).union(keptNames)
    }

    /// Runs one chunk's download to its end, retrying what the network breaks; `nil`: the very
    /// first request for a file whose length is not known yet. `version`: what `plan()` claimed
    /// the chunk for.
    private func download(_ chunk: Range<Int64>?, of resource: RemoteResource, version: Int) async {
        let download = RangeDownload(resource: resource, retries: configuration.retries, logger: logger)
        await download.run(chunk, version: version)
        if let chunk { resource.finished(chunk, version: version) } else { resource.firstRequestEnded() }
        cache.trimIfNeeded(pinned: pinnedNames)
        pump(resource)
    }
}

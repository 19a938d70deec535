import Base
import Cache
import Config
import FoundationEssentials
import Logging
import Model

/// Turns a track's location into a `ByteSource`: a file on this machine as it is, or a remote file
/// read through the sparse cache by the input of the source that serves it.
///
/// It runs on a thread of its own: downloads write and sync cache files — blocking calls that
/// must stay off the cooperative pool. Every download task it starts inherits that thread.
/// Anything that may wait longer — a secret from a command, a file of the disk read for a scan,
/// cover art written — runs on the `BlockingPool`, so no download waits behind it.
package actor LoaderActor {
    private let executor = ThreadExecutor(name: "loader")

    package nonisolated var unownedExecutor: UnownedSerialExecutor {
        executor.asUnownedSerialExecutor()
    }

    package internal(set) var settings: LoaderSettings
    /// The configured sources; replaced on reload.
    package private(set) var sources: SourceSet
    let artwork: ArtworkCache
    let cache: SparseCache
    /// Where the cache's commits (each an fdatasync) run: the `BlockingPool`'s shared one, or a
    /// test's own, so that it can hold every thread without holding up other tests.
    let commitPool: BlockingPool
    let logger = Logger(label: "cloudplayerd.loader")
    /// Sources at work, by name, opened on first use.
    private var opened: [String: Source] = [:]
    /// The open web: URLs no source covers, fetched without credentials.
    private var web: HTTPInput?
    /// Links remote documents named, off their sources: the open web, but never this machine's
    /// or its network's addresses (`+Links`) — by whether the addresses are checked (a
    /// stranger's always are; others unless `allow_private_links`).
    var links: [Bool: HTTPInput] = [:]
    private let wholeFileServers = WholeFileServers()
    /// Room for downloads per host (`[network] per_host`), shared by every file.
    private let hosts: HostLimiter
    /// Hosts that could not be connected to lately.
    let reachability = HostReachability()
    /// Remote files in use, by cache name. Dropped when no one reads or wants them.
    var resources: [String: RemoteResource] = [:]
    /// The next track's resource, kept from eviction until the next prefetch.
    private var prefetched: RemoteResource?
    /// Resources `resource(for:)` is handing out, by name, with how many calls: kept (their cache
    /// entries too) though nobody reads or wants them yet, since that call may wait (for the
    /// length, a revalidation) and other work runs on the loader meanwhile.
    private var opening: [String: Int] = [:]
    private(set) var isShutDown = false
    /// Plays being reported to the sources (a Subsonic `scrobble`).
    let reports = PendingReports()
    /// Files the user keeps for offline use (pinned playlists), by cache name: never evicted.
    var keptNames: Set<String> = []
    /// Tracks whose cache state someone follows (the queue's), by cache name, with the state last
    /// reported (`followCacheStates`).
    var followed: [String: FollowedTrack] = [:]
    /// Where changes of followed cache states go.
    let cacheStates = Broadcast<CacheStateChange>()
    /// Tracks whose answer was a live stream (`LoaderError.liveStream`): opened as one from then on.
    var knownLive: Set<String> = []
    /// Tracks whose server called them station lists (`LoaderError.stationList`).
    var knownLists: Set<String> = []
    /// Live streams playing, ended by `shutdown` (each ends by itself once nobody reads it).
    var liveStreams: [WeakLiveStream] = []
    /// A live stream opened to check it (`hold`), kept for the play that follows (`+Held`).
    var held: HeldLiveStream?

    /// `artworkDirectory`: where embedded cover art is written (default: the cache's `art`).
    package init(settings: LoaderSettings = LoaderSettings(), sources: SourceSet = SourceSet(), artworkDirectory: URL? = nil,
                 commitPool: BlockingPool = .shared) {
        self.settings = settings
        self.commitPool = commitPool
        self.sources = sources
        hosts = HostLimiter(limit: settings.perHost)
        artwork = ArtworkCache(directory: artworkDirectory ?? settings.cacheDirectory.appendingPathComponent("art"))
        cache = SparseCache(directory: settings.cacheDirectory.appendingPathComponent("data"), limit: settings.cacheLimit)
    }

    deinit {
        executor.shutdown()
    }

    /// How long the daemon's stop waits for the cache's last commits: it must end within a
    /// second (`StopDeadline`), and a busy disk's sync can take seconds.
    static let lastCommits = Duration.milliseconds(400)

    /// Ends every download and closes the network clients; plays still being reported are given
    /// `PendingReports.grace` first, and the cache's last commits `bound` (a caller held to no
    /// stop deadline waits for the disk).
    package func shutdown(recordingWithin bound: Duration = .seconds(30)) async {
        guard !isShutDown else { return }
        isShutDown = true
        // Stations first: a read or a check blocked on one holds a thread of the pool the
        // cache's last commits need.
        held = nil
        for stream in liveStreams { stream.stream?.cancel() }
        liveStreams = []
        await reports.finish(logger: logger)
        // What arrived is kept for the next run: recorded, unless the disk takes longer than
        // `bound` (a record left behind vouches for fewer bytes, never for more).
        let open = Array(resources.values)
        for resource in open {
            resource.fail(.cancelled)
            resource.commit()
        }
        let deadline = ContinuousClock.now + bound
        var recorded = true
        for resource in open where recorded { recorded = await resource.commitsEnded(by: deadline) }
        if !recorded { logger.notice("the cache disk is slow: the last bytes downloaded were not all recorded, and will be fetched again") }
        resources = [:]
        cacheStates.finish()
        for input in remoteInputs { await input.shutdown() }
        opened = [:]
        (web, links) = (nil, [:])
    }

    /// Takes new sources and network settings (SIGHUP). The sources opened before are let go:
    /// new requests open them again with the new settings and read their secrets anew, and an
    /// input let go closes its connections when the last download, reader or scan that holds it
    /// ends (`RemoteInput`). The cache's size applies at once; its folder waits for a restart.
    package func reload(settings new: LoaderSettings, sources: SourceSet) {
        // Every source is opened anew, its settings changed or not: an opened one keeps the
        // secrets it read (a password_file, _command or keyring item), and a reload is how the
        // user says one changed. What is being read goes on with the source it was opened from.
        opened = [:]
        // The open web and the links documents name have no other settings.
        if new.readTimeout != settings.readTimeout || new.proxy != settings.proxy { (web, links) = (nil, [:]) }
        settings.readTimeout = new.readTimeout
        settings.proxy = new.proxy
        settings.sourceProxies = new.sourceProxies
        settings.retries = new.retries
        reloadCache(new)
        settings.streamRetry = new.streamRetry
        settings.hlsBandwidth = new.hlsBandwidth
        settings.allowPrivateLinks = new.allowPrivateLinks
        settings.perHost = new.perHost
        hosts.setLimit(new.perHost)
        self.sources = sources
        reportCacheStates(of: Set(followed.keys))  // a track whose source is gone is cached no more
    }

    private var remoteInputs: [any RemoteInput] {
        opened.values.compactMap { source in
            if case .remote(let input) = source.input { return input }
            return nil
        } + [web].compactMap { $0 } + links.values.map { $0 as any RemoteInput }
    }

    // MARK: Reading

    /// Starts fetching the head and tail of a track (the next one), so it starts without a wait.
    /// A station is not: its bytes are live, and connecting early would only waste them.
    package func prefetch(_ location: TrackLocation) async {
        guard !knownLive.contains(location.uri), case .remote(let input)? = try? self.input(for: location), !input.isLive(location) else { return }
        prefetched?.unwant()
        do {
            let resource = try await resource(for: location, input: input)
            prefetched = resource
            resource.prefetch()
        } catch LoaderError.liveStream {
            // A station: its answer is let go (closed) — kept unread it would go stale.
            knownLive.insert(location.uri)
            _ = resources[SparseCache.identity(of: location.uri).name]?.takeLiveAnswer()
        } catch {
            logger.debug("prefetch failed", metadata: ["reason": "\(error)"])
        }
    }

    /// Tells the source of a track that it started playing (`heard` false) or has been heard
    /// (`RemoteInput.played`), without holding up the caller; a failure is only logged. The report
    /// is one of `reports` until answered, so stopping waits for it (`shutdown`).
    package func played(_ location: TrackLocation, heard: Bool) {
        guard !isShutDown, case .remote(let input)? = try? input(for: location) else { return }
        reports.send { [logger] in
            do {
                try await input.played(location, heard: heard)
            } catch {
                logger.notice("play not reported to the server", metadata: ["source": "\(input.name)", "reason": "\(error)"])
            }
        }
    }

    /// Reads exactly `range` of a track — through the cache for a remote file, fetching only its
    /// holes and nothing around them (a library scan reads heads and tails this way, and the
    /// bytes stay for the first play). `known`: length and version a folder listing just gave,
    /// which spares a request.
    ///
    /// From a server that ignores `Range`, bytes more than `wholeFileSlack` past those already
    /// here are refused with `wholeFileOnly`: the stream from the start would bring the whole file.
    package func bytes(in range: Range<Int64>, of location: TrackLocation, known: ResourceInfo? = nil) async throws -> [UInt8] {
        guard case .remote(let input) = try self.input(for: location) else {
            let path = try Self.path(of: location)  // read on the pool: a scan of a slow disk holds up no download
            return try await BlockingPool.shared.run { try FileByteSource(path: path).readBytes(in: range) }
        }
        let resource = try await resource(for: location, input: input, known: known)
        if resource.ignoresRanges, range.lowerBound > resource.presentRun(from: 0) + Self.wholeFileSlack {
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

    /// A small file whole (a feed, a playlist file); nil when the server says it still has
    /// `validator`. A local file is read from disk.
    package func document(_ location: TrackLocation, limit: Int = 16 << 20, ifNoneMatch validator: String? = nil) async throws -> FetchedDocument? {
        guard case .remote(let input) = try self.input(for: location) else {
            let path = try Self.path(of: location)
            let bytes = try await BlockingPool.shared.run { try FileByteSource(path: path).readBytes(in: 0..<Int64(limit) + 1) }
            guard bytes.count <= limit else { throw LoaderError.badResponse("a document larger than \(limit >> 20) MiB") }
            return FetchedDocument(bytes: bytes, validator: nil)
        }
        return try await input.document(location, limit: limit, ifNoneMatch: validator)
    }

    /// What lists the folders of the source `name`, for a scan; nil if it cannot be listed.
    package func storage(of name: String) throws -> (any MediaStorage)? {
        try source(named: name).storage
    }

    /// The file under this cache name while it is in use (read, wanted, downloading, the next
    /// track): then its cache entry cannot be evicted, and it knows better than the record on disk
    /// what is here. An idle one may have lost its entry to a trim or a clear meanwhile.
    func resourceInUse(named name: String) -> RemoteResource? {
        guard let resource = resources[name], !resource.isIdle || resource === prefetched else { return nil }
        return resource
    }

    // MARK: Sources

    /// How a track is read: the input of the source that serves it, the disk for a file of none,
    /// the open web for a URL of none.
    func input(for location: TrackLocation) throws -> TrackInput {
        guard !isShutDown else { throw LoaderError.cancelled }
        if let name = location.source {
            // Queued before a reload that renamed or removed its source: placed again by its URL.
            if sources.source(named: name) == nil, let url = location.url {
                let placed = sources.location(of: url)
                if placed.source != name { return try input(for: placed) }
            }
            return try source(named: name).input
        }
        if location.namedBy != nil { return try linkInput(for: location) }
        if location.isFile { return .disk }
        _ = try HTTPInput.url(of: location)
        if let web { return .remote(web) }
        let input = HTTPInput(transport: try HTTPTransport(name: "web", readTimeout: settings.readTimeout, proxy: settings.proxy, offersCAFile: false))
        web = input
        return .remote(input)
    }

    private func source(named name: String) throws -> Source {
        guard !isShutDown else { throw LoaderError.cancelled }
        if let known = opened[name] { return known }
        guard let configured = sources.source(named: name) else {
            throw LoaderError.configuration("there is no source '\(name)' in the config file")
        }
        let source = try configured.open(SourceEnvironment(readTimeout: settings.readTimeout, proxy: settings.proxy(forSource: name),
                                                           sources: sources, allowPrivateLinks: settings.allowPrivateLinks))
        opened[name] = source
        return source
    }

    /// The path of a track on this machine.
    static func path(of location: TrackLocation) throws -> String {
        guard let url = location.url, url.isFileURL else { throw LoaderError.unsupportedScheme(location.url?.scheme ?? TrackLocation.scheme) }
        return url.path
    }

    // MARK: Downloads

    /// The shared resource for a remote track, its length and version known (from the cache, or
    /// from the first answer of the server).
    /// `revalidatingFirst`: a cached copy that is not whole is checked with the server before
    /// this returns, not meanwhile — so a server that cannot be reached is known at once.
    func resource(for location: TrackLocation, input: any RemoteInput, known: ResourceInfo? = nil,
                  revalidatingFirst: Bool = false) async throws -> RemoteResource {
        guard !isShutDown else { throw LoaderError.cancelled }
        let (name, _) = SparseCache.identity(of: location.uri)
        opening[name, default: 0] += 1
        defer { opening[name] = opening[name].flatMap { $0 > 1 ? $0 - 1 : nil } }
        // Looked up first: an idle resource that is asked for again is used again (its record
        // read and its copy revalidated already), not dropped and made anew. An outdated one
        // serves only those who read it already.
        var existing = resources[name].flatMap { $0.isStale ? nil : $0 }
        if let candidate = existing, let current = candidate.currentInfo, let known,
           !known.statesCopy(length: current.length, validator: current.validator) {
            // A listing says the file changed since this resource learnt its version (a rescan
            // right after a scan read it): its bytes are the old version's.
            outdated(candidate)
            existing = nil
        }
        // One fetched on another's word (a remote document's link, or the user's) reads through
        // another input: an idle one is let go rather than lend this request its trust.
        if let candidate = existing, candidate.location.namedBy != location.namedBy, candidate.isIdle { existing = nil }
        dropUnused(keeping: existing)
        let resource: RemoteResource
        if let existing {
            resource = existing
            if resource.retryFailedOpening() { Task { await self.download(nil, of: resource, version: 0) } }
        } else {
            resource = RemoteResource(location: location, input: input, wholeFileServers: wholeFileServers, cache: cache,
                                      commitPool: commitPool, known: known) { [weak self] resource in
                guard let self else { return }
                Task { await self.pump(resource) }
            }
            resources[name] = resource
            if resource.currentInfo == nil {
                Task { await self.download(nil, of: resource, version: 0) }
            } else if known == nil {  // what a listing just said needs no second asking
                if revalidatingFirst && !resource.isComplete {
                    await revalidate(resource)
                } else {
                    Task { await self.revalidate(resource) }
                }
            }
        }
        try await resource.waitForInfo()
        reportCacheStates(of: cache.trimIfNeeded(keeping: protectedNames))
        return resource
    }

    /// Forgets idle resources but `kept` (and the next track's).
    private func dropUnused(keeping kept: RemoteResource?) {
        // A resource with downloads in flight stays: a second one on the same files would not
        // know what the first is fetching.
        resources = resources.filter { !$0.value.isIdle || $0.value === prefetched || $0.value === kept || opening[$0.key] != nil }
    }

    /// Starts the downloads the resource's plan asks for (even for a resource no longer listed:
    /// a reader may still wait on it).
    private func pump(_ resource: RemoteResource) {
        guard !isShutDown else { return }
        let (chunks, version) = resource.plan(readAhead: settings.readAhead,
                                              fillWhole: settings.fillWhole || keptNames.contains(resource.name))
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
            let fresh = try await resource.input.describe(resource.location)
            reachability.answered(resource.host)
            guard !fresh.statesCopy(length: known.length, validator: known.validator) else { return }
            outdated(resource)
            if resources[resource.name] === resource && !resource.isInUse { resources[resource.name] = nil }
            reportCacheStates(of: [resource.name])
        } catch {
            if case .unreachable = HTTPTransport.loaderError(error) { reachability.connectFailed(resource.host) }
            logger.debug("cached copy not revalidated", metadata: ["source": "\(resource.input.name)", "reason": "\(error)"])
        }
    }

    /// A resource's copy is not the server's version: it serves only those reading it already,
    /// and the next open fetches the new version.
    private func outdated(_ resource: RemoteResource) {
        logger.info("cached copy is outdated; the new version will be fetched", metadata: ["source": "\(resource.input.name)"])
        resource.forgetCachedCopy()
    }

    /// Cache entries never evicted now: in use (read, wanted, downloading, the next track), or
    /// kept by the user for offline play.
    var protectedNames: Set<String> {
        Set(resources.values.filter { !$0.isIdle || $0 === prefetched }.map(\.name)).union(keptNames).union(opening.keys)
    }

    /// Runs one chunk's download to its end, retrying what the network breaks; `nil`: the very
    /// first request for a file whose length is not known yet. `version`: what `plan()` claimed
    /// the chunk for.
    private func download(_ chunk: Range<Int64>?, of resource: RemoteResource, version: Int) async {
        let download = RangeDownload(resource: resource, retries: settings.retries, hosts: hosts, reachability: reachability,
                                     reconnectDelay: .milliseconds(Int(settings.readTimeout * 1000)), logger: logger)
        await download.run(chunk, version: version)
        if let chunk { resource.finished(chunk, version: version) } else { resource.firstRequestEnded() }
        reportCacheStates(of: cache.trimIfNeeded(keeping: protectedNames).union([resource.name]))
        pump(resource)
    }
}

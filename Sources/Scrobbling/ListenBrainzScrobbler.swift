import Base
import Config
import FoundationEssentials
import Loader
import Logging
import Model
import NIOCore
import NIOHTTP1
import Playback
import ServiceLifecycle

/// Sends what the player reports heard to ListenBrainz: "playing now" when a track starts, a
/// listen once it has been heard (half of it, or four minutes). Listens go through the
/// `ListenJournal` on disk first and leave it only once the service has them, in order, in
/// batches, at the pace its rate-limit headers ask. Offline or on the service's errors they wait
/// (backing off); a refused token pauses sending — with one error in the log — until the config
/// changes; playing never waits for any of it.
///
/// It runs on a thread of its own: the journal syncs to disk. Its token may come from a file or
/// a command, read on the `BlockingPool` once per settings (a command that hangs holds up
/// scrobbling only — `report()` and playback never wait for it).
package actor ListenBrainzScrobbler {
    private let executor = ThreadExecutor(name: "scrobbler")

    package nonisolated var unownedExecutor: UnownedSerialExecutor {
        executor.asUnownedSerialExecutor()
    }

    /// The wait after a failure grows from the first to the last.
    static let firstBackoff = Duration.seconds(2)
    static let longestBackoff = Duration.seconds(300)

    private let logger = Logger(label: "cloudplayerd.scrobble")
    /// `submission_client_version`.
    private let version: String
    private var settings: ListenBrainzSettings?
    private var transport: HTTPTransport?
    private var journal: ListenJournal
    /// Why sending is paused (the token was refused), until the config changes.
    private var paused: String?
    /// No request before this (the rate limit's window).
    private var notBefore = ContinuousClock.now
    private var backoff = firstBackoff
    /// A service that refused a batch: its listens go one by one, to find the one it refuses.
    private var oneByOne = 0
    private var sending: Task<Void, Never>?
    /// The "playing now" under way; a newer track's replaces it.
    private var announcing: Task<Void, Never>?
    /// Shut down: listens are still kept, none is sent.
    private var stopped = false
    /// Bumped by new settings and by shutdown: an answer to a request made before is not acted on
    /// (a 401 for the old token must not pause the new one; a drain that was stopped stops).
    private var generation = 0
    /// What `report()` says, kept apart so that asking never waits for a request under way.
    private let shown = Locked<(configured: Bool, waiting: Int, problem: String?)>((false, 0, nil))
    private let events: AsyncStream<PlayerEvent>

    /// `journal`: where listens wait to be sent (kept across runs).
    package init(settings: ListenBrainzSettings?, journal: URL, version: String, following player: Player) {
        // Subscribed now, so no listen is missed before `run()`.
        events = player.subscribe()
        self.settings = settings
        let journal = ListenJournal(url: journal)
        self.journal = journal
        self.version = version
        shown.withLock { $0 = (settings != nil, journal.pending.count, nil) }
    }

    deinit {
        executor.shutdown()
    }

    /// The journal of a daemon: `$XDG_DATA_HOME/cloudplayerd/listens.jsonl` (`listens-NAME.jsonl`
    /// for a named instance), beside its state.
    package static func journal(instance: String?) -> URL {
        XDGDirectories.data.appendingPathComponent(instance.map { "listens-\($0).jsonl" } ?? "listens.jsonl")
    }

    /// With `[scrobble]` set: the listens waiting to be sent, and why sending is paused if it is.
    /// Answered at once, whatever the scrobbler is waiting for (a slow token command, a request).
    package nonisolated func report() -> (waiting: Int, problem: String?)? {
        shown.withLock { $0.configured ? ($0.waiting, $0.problem) : nil }
    }

    private func updateShown() {
        shown.withLock { $0 = (settings != nil, journal.pending.count, paused) }
    }

    /// New settings (the config reloaded): a paused scrobbler tries again with them.
    package func configure(_ new: ListenBrainzSettings?) async {
        guard !stopped, new != settings || paused != nil else { return }
        if new?.url != settings?.url { notBefore = .now }  // another server: the old one's window is not its
        settings = new
        paused = nil
        oneByOne = 0
        backoff = Self.firstBackoff
        generation += 1
        sending?.cancel()
        sending = nil
        let old = transport
        transport = nil
        updateShown()
        sendQueued()
        await old?.shutdown()
    }

    /// Stops sending; listens reported from now on are still kept in the journal for the next run.
    package func shutdown() async {
        stopped = true
        generation += 1
        sending?.cancel()
        sending = nil
        announcing?.cancel()
        let old = transport
        transport = nil
        await old?.shutdown()
    }

    // MARK: What the player reports

    private func announce(_ listen: Listen?) {
        announcing?.cancel()
        announcing = Task { await self.playing(listen) }
    }

    private func playing(_ listen: Listen?) async {
        guard !stopped, settings != nil, paused == nil, ContinuousClock.now >= notBefore, let listen else { return }
        // Only a hint for "now": not kept, not retried.
        let generation = self.generation
        let reply = await send(.playingNow(listen, client: version), what: "playing now")
        if case .tokenRefused(let reason)? = reply?.outcome, generation == self.generation {
            pause(Self.refusal(reason, queued: journal.pending.count))
        }
    }

    private func heard(_ listen: Listen?, of track: String) {
        guard settings != nil else { return }
        guard let listen else {
            logger.debug("not scrobbled: no artist or title tag", metadata: ["track": "\(track)"])
            return
        }
        do {
            try journal.append(listen)
        } catch {
            logger.warning("a listen could not be kept for sending", metadata: ["listen": "\(listen.shown)", "reason": "\(error)"])
            return
        }
        updateShown()
        sendQueued()
    }

    // MARK: Sending

    /// Starts sending the journal's listens unless that is under way.
    private func sendQueued() {
        guard !stopped, sending == nil, settings != nil, paused == nil, !journal.pending.isEmpty else { return }
        sending = Task { await self.drain() }
    }

    /// Sends the journal's listens, oldest first, until none is left, sending pauses, or new
    /// settings or a shutdown end this drain (`generation`).
    private func drain() async {
        let generation = self.generation
        defer { if generation == self.generation { sending = nil } }
        func current() -> Bool { !Task.isCancelled && generation == self.generation }
        while current(), settings != nil, paused == nil, !journal.pending.isEmpty {
            // The window may move on while waiting (a "playing now" answer): wait until it is past.
            while current(), ContinuousClock.now < notBefore { try? await Task.sleep(for: notBefore - .now) }
            guard current() else { return }
            let batch = Array(journal.pending.prefix(oneByOne > 0 ? 1 : ListenBrainzSubmission.largestBatch))
            let reply = await send(.listens(batch, client: version), what: "\(batch.count) listen(s)")
            guard current() else { return }  // an answer to old settings: acted on by no one
            guard let reply else {
                try? await Task.sleep(for: backoff)
                backoff = min(backoff * 2, Self.longestBackoff)
                continue
            }
            switch reply.outcome {
            case .accepted:
                backoff = Self.firstBackoff
                oneByOne = max(oneByOne - batch.count, 0)
                forget(batch.count)
                logger.info("scrobbled", metadata: ["listens": "\(batch.count)", "first": "\(batch[0].shown)"])
            case .refused(let reason):
                if batch.count > 1 {
                    oneByOne = batch.count  // the bad one is among them: find it
                } else {
                    logger.warning("ListenBrainz refuses a listen; it is dropped", metadata: ["listen": "\(batch[0].shown)", "reason": "\(reason)"])
                    oneByOne = max(oneByOne - 1, 0)
                    forget(1)
                }
            case .tokenRefused(let reason):
                pause(Self.refusal(reason, queued: journal.pending.count))
            case .rateLimited:
                break  // `send` set the wait
            case .unavailable(let reason):
                logger.notice("ListenBrainz did not take the listens; trying again later", metadata: ["reason": "\(reason)"])
                try? await Task.sleep(for: backoff)
                backoff = min(backoff * 2, Self.longestBackoff)
            }
        }
    }

    private func forget(_ count: Int) {
        do {
            try journal.removeFirst(count)
        } catch {
            // Out of the queue here, still in the file: sent again by a later run, with their
            // own time, and recorded once.
            logger.warning("sent listens could not be taken off the journal", metadata: ["reason": "\(error)"])
        }
        updateShown()
    }

    private static func refusal(_ reason: String, queued: Int) -> String {
        "ListenBrainz refused the user token (\(reason)); scrobbling is paused until the token in [scrobble] is changed"
            + " and the config reloaded — \(queued) listen(s) are kept"
    }

    private func pause(_ reason: String) {
        guard paused == nil else { return }
        paused = reason
        updateShown()
        logger.error("\(reason)")
    }

    /// Sends one submission; nil when no answer came (offline, a timeout), after logging why.
    private func send(_ submission: ListenBrainzSubmission, what: String) async -> ListenBrainzReply? {
        guard let settings else { return nil }
        do {
            let transport = try await openTransport(settings)
            let response = try await transport.send(settings.submitURL, method: .POST, headers: ["Content-Type": "application/json"],
                                                    body: String(decoding: submission.json(), as: UTF8.self))
            let body = try await response.body.collect(upTo: 64 << 10)
            let reply = ListenBrainzReply(status: Int(response.status.code), headers: response.headers, body: Array(body.readableBytesView))
            if let wait = reply.wait { notBefore = max(notBefore, ContinuousClock.now + wait) }
            return reply
        } catch let error as ConfigError {
            pause("the ListenBrainz token cannot be read (\(error)); scrobbling is paused until the config changes")
            return nil
        } catch {
            logger.notice("ListenBrainz cannot be reached; listens wait", metadata: ["sending": "\(what)", "reason": "\(error)"])
            return nil
        }
    }

    /// The transport, made once per settings: the token — read once here, on the `BlockingPool`
    /// (a `listenbrainz_token_command` runs once per config, not per request) — only to the
    /// service's own origin.
    private func openTransport(_ settings: ListenBrainzSettings) async throws -> HTTPTransport {
        if let transport { return transport }
        let origin = URLOrigin(settings.url)
        let header = "Token \(try await settings.token.resolve().reveal())"
        if let transport { return transport }  // made by another send while the token was read
        let made = try HTTPTransport(name: "ListenBrainz", readTimeout: 30, proxy: settings.proxy, offersCAFile: false) { url in
            guard let origin, URLOrigin(url) == origin else { return [:] }
            return ["Authorization": header]
        }
        // Settings changed while the token was read: this one is for the request of the old ones only.
        if settings == self.settings { transport = made }
        return made
    }
}

extension ListenBrainzScrobbler: Service {
    /// Follows the player to its last event — the listen its stop completes included, so it
    /// stops after the player — then waits for its turn to stop; sends what an earlier run left
    /// first. A listen goes to the journal as soon as it is reported: "playing now" is sent
    /// beside, never before it. Stopping sends nothing more: a listen not yet sent stays in the
    /// journal for the next run.
    package nonisolated func run() async {
        await sendQueued()
        var stations = StationListens()
        for await event in events {
            switch event.change {
            case .listenStarted(let entry, let at): await announce(Listen(entry, startedAt: at))
            case .listened(let entry, let startedAt): await heard(Listen(entry, startedAt: startedAt), of: entry.displayName)
            default:
                guard await settings?.stations == true else { continue }
                let (started, ended) = stations.observe(event, at: Date())
                if let ended { await heard(ended, of: "a station's song") }
                if let started { await announce(started) }
            }
        }
        try? await gracefulShutdown()
        await shutdown()
    }
}

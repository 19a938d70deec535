import FoundationEssentials
import Logging
import Model
import NIOCore
import NIOHTTP1
import Parsers

/// The connections of a live stream: the first made before the stream is handed out (so a
/// station that answers 404 or a web page is one error at once), then made again whenever one
/// breaks, with backoff.
extension LiveStream {
    /// Connects to the station and returns its first part, its connection running. A station that
    /// cannot be had now is an error at once, not retried: a station list goes on to its next entry.
    /// `answer`: an answer to a request already made, which found the station live.
    static func open(_ location: TrackLocation, input: any RemoteInput, answer: HTTPAnswer?, retryWindow: Duration,
                     logger: Logger, waiting: (@Sendable (Bool) -> Void)?) async throws -> LivePart {
        let stream = LiveStream(location: location, input: input, retryWindow: retryWindow, logger: logger)
        let response: HTTPAnswer
        if let answer { response = try Self.check(answer) } else { response = try await stream.connect() }
        stream.begin(response, number: 0)
        // A station says it is one (a `radio` source's, or `icy-` headers): connected to again
        // when its stream ends. Any other answer without a length is a file made as it is sent,
        // which ends where it ends; only a connection that breaks is made again.
        let reconnects = input.isLive(location) || response.headers.contains { $0.name.lowercased().hasPrefix("icy-") }
        stream.run(Task { await stream.run(first: response, reconnects: reconnects) })
        return LivePart(stream: stream, index: 0, lifetime: LivePart.Lifetime(stream), waiting: waiting)
    }

    /// Titles kept waiting for their audio to be decoded, per part.
    static let titlesKept = 64

    /// Attempts a broken stream makes again at once, a second apart, before backing off.
    static let quickAttempts = 5
    /// The longest wait between two attempts.
    static let slowestAttempt = Duration.seconds(15)
    /// Audio bytes a connection brings before it counts as a recovery: a server that accepts and
    /// closes at once must not keep a stream trying for ever.
    static let recoveredAfter: Int64 = 64 << 10

    /// Runs the connections until the stream is cancelled or gives up.
    private func run(first: HTTPAnswer, reconnects: Bool) async {
        var response: HTTPAnswer? = first
        var number = 0
        var attempts = 0
        var brokeAt: ContinuousClock.Instant?
        var reason = LoaderError.network("the station closed the connection")
        while !Task.isCancelled {
            if let answer = response {
                response = nil
                let received = await receive(answer, part: number)
                finish(part: number, stream: received.error == nil && !reconnects)
                if received.error == nil && !reconnects { return }
                if received.bytes >= Self.recoveredAfter, brokeAt != nil {
                    logger.info("station is back", metadata: ["station": "\(stationName)"])
                    (brokeAt, attempts) = (nil, 0)
                }
                reason = received.error ?? .network("the station closed the connection")
                if Task.isCancelled { return }
                if brokeAt == nil {
                    brokeAt = .now
                    logger.notice("station stream broke; connecting again", metadata: ["station": "\(stationName)", "reason": "\(reason)"])
                }
            }
            guard await readerCaughtUp(to: number) else { return }
            if let brokeAt, ContinuousClock.now - brokeAt >= retryWindow {
                fail(.streamLost(station: stationName, after: Int(retryWindow.components.seconds), reason: reason.description))
                return
            }
            attempts += 1
            let delay = attempts <= Self.quickAttempts ? .seconds(1) : min(.seconds(1 << min(attempts - Self.quickAttempts, 4)), Self.slowestAttempt)
            do {
                try await Task.sleep(for: delay)
                let answer = try await connect()
                number += 1
                begin(answer, number: number)
                response = answer
            } catch is CancellationError {
                return
            } catch {
                reason = HTTPTransport.loaderError(error)
                logger.debug("station not back yet", metadata: ["station": "\(stationName)", "reason": "\(reason)", "attempt": "\(attempts)"])
            }
        }
    }

    /// One request for the stream, with ICY metadata asked for; an answer that is not audio is
    /// an error that says what it is.
    func connect() async throws -> HTTPAnswer {
        let response = try await input.get(location, headers: ["Icy-MetaData": "1", "Accept-Encoding": "identity"])
        guard response.status == .ok else { throw input.failure(response.status) }
        return try Self.check(response)
    }

    /// The answer, if it is audio: a station list or a web page is an error that says so.
    static func check(_ response: HTTPAnswer) throws -> HTTPAnswer {
        switch StationList.looksLikeList(contentType: response.headers.first(name: "Content-Type"), firstBytes: []) {
        case .list: throw LoaderError.stationList
        case .webPage: throw LoaderError.badResponse("the station's address answers a web page, not audio")
        case .media: return response
        }
    }

    /// Adds part `number` for an answer that just came.
    private func begin(_ response: HTTPAnswer, number: Int) {
        begin(part: number, station: Self.station(in: response.headers))
    }

    /// Writes the answer's body into part `number` until it ends, breaks or the stream is
    /// cancelled: the audio bytes, and titles at the audio offsets they came at. Returns how much
    /// audio came, and why it ended (nil: the server closed it).
    private func receive(_ response: HTTPAnswer, part number: Int) async -> (bytes: Int64, error: LoaderError?) {
        let interval = response.headers.first(name: "icy-metaint").flatMap { Int($0.trimmingWhitespace()) }
        var demuxer = interval.flatMap(ICYDemuxer.init(interval:))
        if let interval, demuxer == nil, !condition.withLock({ defer { warnedOfInterval = true }; return warnedOfInterval }) {
            logger.warning("the station's icy-metaint makes no sense; its stream is taken as audio only",
                           metadata: ["station": "\(stationName)", "icy-metaint": "\(interval)"])
        }
        var received: Int64 = 0
        var lastTitle: TrackTags?
        var filter = LiveTagFilter()
        /// Whether an ICY title has named a song: then ID3 tags in the stream name none.
        var icyNames = false
        do {
            for try await buffer in response.body {
                var input: [UInt8] = []
                input.reserveCapacity(buffer.readableBytes)
                let blocks: [ICYDemuxer.Block] = buffer.withUnsafeReadableBytes { bytes in
                    if demuxer != nil { return demuxer!.feed(bytes, audio: &input) }
                    input.append(contentsOf: bytes)
                    return []
                }
                let (audio, tagsFound) = filter.feed(input)
                var titles: [StreamTitleChange] = []
                for block in blocks where block.metadata.streamTitle != nil {
                    let song = block.metadata.song
                    let tags = TrackTags(title: song?.title, artist: song?.artist)
                    // A blank title (Icecast's, before its source has sent one) does not hide a
                    // song an ID3 tag named.
                    if tags == lastTitle || (tags == TrackTags() && !icyNames && lastTitle != nil && lastTitle != TrackTags()) { continue }
                    icyNames = icyNames || tags != TrackTags()
                    // The first block comes `icy-metaint` bytes in, and names the song the
                    // connection began in: it is heard from the connection's first byte.
                    titles.append(StreamTitleChange(offset: lastTitle == nil ? 0 : filter.audioOffset(ofInput: block.audioOffset), tags: tags))
                    lastTitle = tags
                }
                for found in tagsFound where !icyNames && (found.tags.title != nil || found.tags.artist != nil) {
                    let tags = TrackTags(title: found.tags.title, artist: found.tags.artist)
                    if tags == lastTitle { continue }
                    titles.append(StreamTitleChange(offset: found.offset, tags: tags))
                    lastTitle = tags
                }
                titles.sort { $0.offset < $1.offset }
                received += Int64(audio.count)
                await deliver(audio, titles: titles, part: number)
                if Task.isCancelled { return (received, .cancelled) }
            }
            await deliver(filter.finish(), titles: [], part: number)
            return (received, nil)
        } catch {
            return (received, HTTPTransport.loaderError(error))
        }
    }

    /// The `icy-*` headers of an answer.
    static func station(in headers: HTTPHeaders) -> StationInfo {
        func text(_ name: String) -> String? { headers.first(name: name).flatMap(TextDecoding.nonEmpty) }
        let bitRate = text("icy-br").flatMap { Int($0.prefix { $0.isNumber }) }
        return StationInfo(name: text("icy-name"), genre: text("icy-genre"), url: text("icy-url"), bitRate: bitRate)
    }
}

import FoundationEssentials
import Logging
import Model
import Parsers

/// Feeds an HLS stream's segments, in order, into a `LiveStream` as the audio a decoder reads:
/// each segment fetched (through the cache when the playlist ends), decrypted, unpacked from its
/// container, its titles placed at their audio. A live playlist is loaded again as it grows
/// (RFC 8216, 6.3.4); a discontinuity, a new initialisation segment or segments missed starts
/// a new part, which a decoder opens afresh.
struct HLSProducer {
    let stream: LiveStream
    let access: any HLSAccess
    let url: URL
    var playlist: HLSMediaPlaylist
    /// What each part says of the stream (its name and bit rate, from the master playlist).
    let station: StationInfo
    let logger: Logger

    /// The sequence number of the next segment to feed.
    var next: Int
    /// The part being filled, the bytes in it, and the initialisation segment it began with.
    private var part = 0
    private var delivered = 0
    private var map: HLSMap?
    private var lastTitle: TrackTags?
    /// Keys by URL: a playlist names one key for many segments.
    private var keys: [URL: [UInt8]] = [:]
    private var warnedOfDamage = false
    /// Whether the last load of a live playlist brought segments the one before did not have.
    private var grew = true

    init(stream: LiveStream, access: any HLSAccess, url: URL, playlist: HLSMediaPlaylist, station: StationInfo, next: Int, logger: Logger) {
        (self.stream, self.access, self.url, self.playlist, self.station, self.next, self.logger) = (stream, access, url, playlist, station, next, logger)
    }

    /// Where a live playlist is joined: three target durations from its end, no closer (RFC 8216,
    /// 6.3.3), so a reload comes before the segments run out; a playlist that ends, at its start.
    static func liveStart(of playlist: HLSMediaPlaylist) -> Int {
        guard !playlist.ended, let last = playlist.segments.last else { return playlist.segments.first?.sequence ?? playlist.mediaSequence }
        var covered = 0.0
        for segment in playlist.segments.reversed() {
            covered += segment.duration
            if covered >= 3 * playlist.targetDuration { return segment.sequence }
        }
        return playlist.segments.first?.sequence ?? last.sequence
    }

    /// The segment `seconds` falls in, of a playlist that ends, and the time it begins.
    static func segment(at seconds: Double, of playlist: HLSMediaPlaylist) -> (sequence: Int, begins: Double) {
        var begins = 0.0
        for segment in playlist.segments {
            if seconds < begins + segment.duration { return (segment.sequence, begins) }
            begins += segment.duration
        }
        return (playlist.segments.last.map { $0.sequence + 1 } ?? playlist.mediaSequence, begins)
    }

    /// Feeds segments until the playlist ends (the stream ends with its last part), the stream
    /// is cancelled, or it fails: a segment that cannot be had (gone from a playlist that ends,
    /// undecryptable), or a network that stays away longer than the retry window.
    mutating func run() async {
        var brokeAt: ContinuousClock.Instant?
        while !Task.isCancelled {
            var segment: HLSSegment?
            do {
                segment = playlist.segments.first { $0.sequence == next }
                if let segment {
                    try await feed(segment)
                    next += 1
                    brokeAt = nil
                    continue
                }
                if playlist.ended {
                    stream.finish(part: part, stream: true)
                    return
                }
                if let first = playlist.segments.first, next < first.sequence {
                    // The playlist moved on past segments never fed (a stall longer than it holds).
                    logger.notice("HLS stream skipped segments it could not fetch in time", metadata: ["missed": "\(first.sequence - next)"])
                    next = first.sequence
                    await newPart()
                    continue
                }
                try await reload()
                brokeAt = nil
            } catch is CancellationError {
                return
            } catch LoaderError.cancelled {
                return
            } catch {
                let reason = (error as? LoaderError) ?? .badResponse("\(error)")
                if let segment, !playlist.ended, reason == .notFound {
                    // Gone from a live server already (it keeps a few): played on without it.
                    logger.notice("HLS segment gone from the server; played on without it", metadata: ["segment": "\(segment.sequence)"])
                    next += 1
                    await newPart()
                    continue
                }
                let since = brokeAt ?? .now
                brokeAt = since
                // A live playlist that fails to load is tried again: its server may be restarting.
                if segment != nil, Self.isPermanent(reason) {
                    stream.finish(part: part)
                    stream.fail(segment.map { .badResponse("HLS segment \($0.uri.lastPathComponent): \(reason)") } ?? reason)
                    return
                }
                if ContinuousClock.now - since >= stream.retryWindow {
                    stream.finish(part: part)
                    stream.fail(.streamLost(station: stream.stationName, after: Int(stream.retryWindow.components.seconds), reason: reason.description))
                    return
                }
                logger.notice("HLS stream: a fetch failed; trying again", metadata: ["reason": "\(reason)"])
                try? await Task.sleep(for: .seconds(1))
            }
        }
    }

    /// Errors trying again cannot mend: a file the server does not have or refuses, a segment
    /// that does not decrypt, a playlist that is not one.
    private static func isPermanent(_ error: LoaderError) -> Bool {
        switch error {
        case .notFound, .permissionDenied, .refused, .badResponse, .tls, .unsupportedScheme: true
        default: false
        }
    }

    /// Loads the playlist again after the wait RFC 8216 (6.3.4) sets: its target duration after
    /// a load that brought new segments, half of it after one that did not.
    private mutating func reload() async throws {
        // At least half a second: a target duration of 0 must not reload in a loop.
        try await Task.sleep(for: .seconds(max(0.5, playlist.targetDuration * (grew ? 1 : 0.5))))
        let document = try await access.playlist(url, of: stream.location)
        guard case .media(let fresh) = try HLSPlaylist.parse(document.bytes, base: document.url ?? url) else {
            throw LoaderError.badResponse("the HLS media playlist became a master playlist")
        }
        grew = fresh.segments.last?.sequence != playlist.segments.last?.sequence
        playlist = fresh
        if let last = fresh.segments.last?.sequence, last < next - 1 {
            // Numbered from lower than what was fed (the server restarted its stream): joined
            // again, as a new part.
            logger.notice("HLS stream started its numbering again; joined it anew")
            next = Self.liveStart(of: fresh)
            await newPart()
        }
    }

    /// Fetches, decrypts and unpacks one segment, and delivers its audio into the current part
    /// (a new part first, where the stream's timeline or initialisation changes).
    private mutating func feed(_ segment: HLSSegment) async throws {
        var bytes = try await access.segment(segment.uri, of: stream.location, range: segment.byteRange, keep: playlist.ended)
        if let key = segment.key, let iv = segment.iv() {
            bytes = try await decrypt(bytes, key: key, iv: iv)
        }
        let unpacked = SegmentUnpacker.unpack(bytes)
        if unpacked.damage > 0, !warnedOfDamage {
            warnedOfDamage = true
            logger.warning("an HLS segment's transport stream is damaged: played on past it", metadata: ["segment": "\(segment.sequence)"])
        }
        if delivered > 0, segment.discontinuity || (unpacked.container == .fragmentedMP4 && segment.map != map) {
            await newPart()
        }
        if delivered == 0, unpacked.container == .fragmentedMP4 {
            guard let initial = segment.map else { throw LoaderError.badResponse("an fMP4 HLS segment without its initialisation segment (#EXT-X-MAP)") }
            map = initial
            var bytes = try await access.segment(initial.uri, of: stream.location, range: initial.byteRange, keep: true)
            // Encrypted under the key in effect where its tag stands, with that key's IV (RFC 8216,
            // 4.3.2.5); a plain one begins with a box. The tag's key is taken as its segment's.
            if SegmentUnpacker.container(of: bytes) != .fragmentedMP4, let key = segment.key, let iv = key.iv {
                bytes = try await decrypt(bytes, key: key, iv: iv)
            }
            await deliver(bytes, titles: [])
        }
        var titles: [StreamTitleChange] = []
        for title in unpacked.titles where title.tags != lastTitle {
            titles.append(StreamTitleChange(offset: Int64(delivered + title.offset), tags: title.tags))
            lastTitle = title.tags
        }
        await deliver(unpacked.audio, titles: titles)
    }

    /// `bytes` decrypted with `key` (fetched once per key URL) and `iv`.
    private mutating func decrypt(_ bytes: [UInt8], key: HLSKey, iv: [UInt8]) async throws -> [UInt8] {
        guard key.method == .aes128, key.isIdentity, let keyURL = key.uri else {
            throw LoaderError.badResponse("HLS segments encrypted with DRM or SAMPLE-AES, which cloudplayerd does not decrypt (only AES-128 with a key file)")
        }
        let secret: [UInt8]
        if let known = keys[keyURL] {
            secret = known
        } else {
            secret = try await access.key(keyURL, of: stream.location)
            keys[keyURL] = secret
        }
        return try SegmentCipher.decrypt(bytes, key: secret, iv: iv)
    }

    private mutating func deliver(_ audio: [UInt8], titles: [StreamTitleChange]) async {
        await stream.deliver(audio, titles: titles, part: part)
        delivered += audio.count
    }

    /// Ends the current part and starts the next, once the reader has reached the current one.
    private mutating func newPart() async {
        stream.finish(part: part)
        guard await stream.readerCaughtUp(to: part) else { return }
        part += 1
        stream.begin(part: part, station: station)
        (delivered, map) = (0, nil)
    }
}

import Base
import FoundationEssentials
import Model
import NIOCore
import Parsers

/// HLS (HTTP Live Streaming, RFC 8216) opened as a track: a master playlist's variant, then its
/// media playlist's segments fed to the decoder as one stream of audio (`HLSProducer`). A live
/// playlist plays as a station does; one that ends (video on demand) has a length, seeks, and
/// keeps its segments in the cache.
extension LoaderActor: HLSAccess {
    /// The largest playlist read: a VOD playlist of a long audiobook lists thousands of segments.
    static let playlistLimit = 4 << 20
    /// The largest segment fetched outside the cache (a live one).
    static let segmentLimit = 32 << 20

    /// Plays the HLS playlist `document`, fetched from `location`.
    func openHLS(_ location: TrackLocation, playlist document: FetchedDocument, base: URL,
                 waiting: (@Sendable (Bool) -> Void)?) async throws -> any ByteSource {
        guard case .remote(let input) = try input(for: location) else {
            throw LoaderError.badResponse("an HLS playlist in a local file (cloudplayerd plays HLS from servers)")
        }
        var url = base
        var mediaBytes = document.bytes
        // The media playlist's own address, as a master names it (kept under it, for offline).
        var named: URL?
        var parsed = try Self.parseHLS(mediaBytes, base: url)
        var station = StationInfo()
        if case .master(let master) = parsed {
            guard let choice = master.audioChoice(maxBandwidth: settings.hlsBandwidth) else {
                throw LoaderError.badResponse("the HLS master playlist has no variant cloudplayerd can play (AAC or MP3 audio)")
            }
            let variant = choice.audio?.uri ?? choice.variant.uri
            named = variant
            station.bitRate = choice.variant.bandwidth / 1000
            (mediaBytes, url) = try await keptOrFetched(variant, of: location)
            parsed = try Self.parseHLS(mediaBytes, base: url)
        }
        guard case .media(let media) = parsed else { throw LoaderError.badResponse("an HLS master playlist that names another master playlist") }
        guard !media.segments.isEmpty || !media.ended else { throw LoaderError.badResponse("an HLS playlist without segments") }
        if media.ended {
            await keptPlaylists.keep(document.bytes, for: location.uri)
            if let named { await keptPlaylists.keep(mediaBytes, for: sources.location(ofLink: named, in: location).uri) }
        }
        let stream = LiveStream(location: location, input: input, retryWindow: .milliseconds(Int(settings.streamRetry * 1000)), logger: logger)
        stream.begin(part: 0, station: station)
        let (logger, mediaURL, info) = (logger, url, station)
        let producer = { @Sendable (next: Int) in
            Task {
                var producer = HLSProducer(stream: stream, access: self, url: mediaURL, playlist: media, station: info, next: next, logger: logger)
                await producer.run()
            }
        }
        if media.ended {
            // Started where the decoder asks: a seek opens the stream afresh and starts it at the
            // segment that holds its time, fetching nothing before it.
            stream.condition.withLock {
                stream.duration = media.segments.reduce(0) { $0 + $1.duration }
                stream.pendingStart = { seconds in
                    let (sequence, begins) = HLSProducer.segment(at: seconds, of: media)
                    stream.run(producer(sequence))
                    return begins
                }
            }
        } else {
            stream.run(producer(HLSProducer.liveStart(of: media)))
        }
        liveStreams = liveStreams.filter { $0.stream != nil } + [WeakLiveStream(stream: stream)]
        if isShutDown { stream.cancel() }
        return LivePart(stream: stream, index: 0, lifetime: LivePart.Lifetime(stream), waiting: waiting)
    }

    /// The playlists of streams on demand played before are kept (`KeptPlaylists`).
    var keptPlaylists: KeptPlaylists { KeptPlaylists(cacheDirectory: settings.cacheDirectory) }

    /// A media playlist named by a master, and the URL it came from (after redirects): fetched,
    /// or — offline — as kept when it last played.
    private func keptOrFetched(_ url: URL, of track: TrackLocation) async throws -> ([UInt8], URL) {
        do {
            let document = try await playlist(url, of: track)
            return (document.bytes, document.url ?? url)
        } catch let error as LoaderError where error.isTransient {
            guard let kept = await keptPlaylists.kept(for: sources.location(ofLink: url, in: track).uri) else { throw error }
            return (kept, url)
        }
    }

    private static func parseHLS(_ bytes: [UInt8], base: URL) throws -> HLSPlaylist {
        do {
            return try HLSPlaylist.parse(bytes, base: base)
        } catch let error as ParseError {
            throw LoaderError.badResponse("not a playable HLS playlist: \(error.message)")
        }
    }

    func playlist(_ url: URL, of track: TrackLocation) async throws -> FetchedDocument {
        guard let document = try await document(sources.location(ofLink: url, in: track), limit: Self.playlistLimit) else {
            throw LoaderError.badResponse("the HLS playlist's server answered without it")
        }
        return document
    }

    func segment(_ url: URL, of track: TrackLocation, range: Range<Int64>?, keep: Bool) async throws -> [UInt8] {
        let location = sources.location(ofLink: url, in: track)
        if keep, case .remote(let input) = try input(for: location) {
            do {
                let source = NetworkByteSource(resource: try await resource(for: location, input: input), waiting: nil)
                let wanted = range ?? 0..<(source.length ?? Int64(Self.segmentLimit))
                return try await withTaskCancellationHandler {
                    try await BlockingPool.shared.run { try source.readBytes(in: wanted) }
                } onCancel: {
                    source.cancel()
                }
            } catch LoaderError.liveStream {
                // Sent without a length: fetched whole, as a live segment is.
            }
        }
        if let range, case .remote(let input) = try input(for: location) {
            return try await Self.ranged(range, of: location, from: input)
        }
        guard let document = try await document(location, limit: Self.segmentLimit) else {
            throw LoaderError.badResponse("the server answered without the HLS segment")
        }
        guard let range else { return document.bytes }
        let bytes = document.bytes
        return Array(bytes[Int(min(range.lowerBound, Int64(bytes.count)))..<Int(min(range.upperBound, Int64(bytes.count)))])
    }

    /// A live segment that is a sub-range of a file (`#EXT-X-BYTERANGE`): asked for with a
    /// `Range`, not fetched whole for each of its parts. A server that ignores the range sends
    /// the file, which is cut here.
    private static func ranged(_ range: Range<Int64>, of location: TrackLocation, from input: any RemoteInput) async throws -> [UInt8] {
        guard !range.isEmpty else { return [] }
        let response = try await input.get(location, headers: ["Range": "bytes=\(range.lowerBound)-\(range.upperBound - 1)"])
        let whole = response.status == .ok
        guard whole || response.status == .partialContent else { throw input.failure(response.status) }
        // A whole file is read only as far as the range's end; a partial answer as long as the range.
        let end = whole ? Int(range.upperBound) : range.count
        guard end <= segmentLimit else { throw LoaderError.badResponse("an HLS segment's range larger than \(segmentLimit >> 20) MiB") }
        var bytes: [UInt8] = []
        for try await buffer in response.body {
            bytes += buffer.readableBytesView.prefix(end - bytes.count)
            if bytes.count >= end { break }
        }
        return whole ? Array(bytes[Int(min(range.lowerBound, Int64(bytes.count)))...]) : bytes
    }

    func key(_ url: URL, of track: TrackLocation) async throws -> [UInt8] {
        guard let document = try await document(sources.location(ofLink: url, in: track), limit: 1024) else {
            throw LoaderError.badResponse("the server answered without the HLS key")
        }
        guard document.bytes.count == 16 else { throw LoaderError.badResponse("an HLS key of \(document.bytes.count) bytes (AES-128 keys are 16)") }
        return document.bytes
    }
}

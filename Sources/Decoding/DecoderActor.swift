import Base
import Logging
import Model
import Parsers

/// Decodes tracks into the bounded PCM channel.
///
/// The C decoders read through callbacks that block until the `ByteSource` has the bytes, so this
/// actor runs on a thread of its own, never on the cooperative pool. Sending into the queue
/// suspends while it is full: that is the back-pressure that keeps memory flat.
package actor DecoderActor {
    /// Frames in the first packet of a track (about 0.09 s at 44.1 kHz): audio starts as soon as
    /// that much is decoded, even from a slow source.
    package static let firstPacketFrames = 4096
    /// Frames in a packet once a track is under way (about 0.74 s): each hand-off to the output
    /// wakes a thread, and at 8192 frames those wake-ups cost an eighth of the decoding speed.
    package static let packetFrames = 32768

    private let executor = ThreadExecutor(name: "decoder")
    static let logger = Logger(label: "cloudplayerd.decoder")

    package nonisolated var unownedExecutor: UnownedSerialExecutor {
        executor.asUnownedSerialExecutor()
    }

    package init() {}

    deinit {
        executor.shutdown()
    }

    /// Decodes `entry` from `start` seconds into `packets`, framed by `.trackStart` and `.trackEnd`,
    /// and returns at its end or when the task is cancelled. An error after the track started still
    /// ends it in the channel, then propagates. `readingTags`: false when the track's tags are
    /// known already (a seek in it), so its head and tail are not read again. `loudness`: how
    /// its ReplayGain tags (its own, else the entry's) scale it; `inAlbumRun` for `auto`.
    package func decode(_ entry: QueueEntry, from source: any ByteSource, startingAt start: Double,
                        readingTags: Bool = true, loudness: ReplayGainSettings = ReplayGainSettings(), inAlbumRun: Bool = false,
                        into packets: BoundedQueue<PCMPacket>) async throws {
        if let live = source as? any LiveByteSource { return try await decodeLive(entry, from: live, startingAt: start, into: packets) }
        let decoder = try Self.open(source)
        var info = decoder.info
        if readingTags { (info.tags, info.chapters) = await tags(of: source) }
        let gain = loudness.factor(for: info.tags.replayGain.filled(from: entry.metadata.tags.replayGain), inAlbumRun: inAlbumRun)
        let startFrame = info.frame(at: start)
        if let total = info.totalFrames, startFrame >= total {
            // At or past the end: nothing to play (opusfile refuses to seek there at all).
            await packets.send(.trackStart(entry, info, startFrame: total))
            await packets.send(.trackEnd(entry))
            return
        }
        if startFrame > 0 { try decoder.seek(toFrame: startFrame) }
        // A seek may land in a chained link of another format.
        info = decoder.info.with(tags: info.tags, chapters: info.chapters)
        await packets.send(.trackStart(entry, info, startFrame: decoder.position))
        do {
            var size = Self.firstPacketFrames
            while !Task.isCancelled {
                var samples = try decoder.read(maxFrames: size)
                if samples.isEmpty { break }
                if decoder.info.format != info.format {
                    // The track goes on in another format: the output reopens its stream for it.
                    info = decoder.info.with(tags: info.tags, chapters: info.chapters)
                    let frames = Int64(samples.count / info.format.channels)
                    await packets.send(.trackStart(entry, info, startFrame: decoder.position - frames))
                }
                if let gain { samples.scale(by: gain, depth: info.format.depth) }
                await packets.send(.samples(samples))
                size = min(size * 2, Self.packetFrames)
            }
        } catch {
            await packets.send(.trackEnd(entry))
            throw error
        }
        await packets.send(.trackEnd(entry))
    }

    /// The track's tags and chapters, read by the library's `TagReader`, so a track shows the
    /// same tags playing as listed. Its reads block on the source: fine on this actor's thread.
    /// Never an error: a track whose tags cannot be read, or whose length is unknown (the reader
    /// needs the file's end), plays without them. An MP3's ID3v1 tail is read only if it is here:
    /// from a server it was a request of its own before the first sample (the library's scan
    /// reads it, and a library track's tags come from there; read-ahead soon brings it for the
    /// next play).
    private func tags(of source: any ByteSource) async -> (TrackTags, [Chapter]) {
        guard let length = source.length else { return (TrackTags(), []) }
        let scanned = try? await TagReader.read(length: length, readingTail: { source.holds($0) }) { range in
            try source.readBytes(at: range.lowerBound, count: Int(range.count))
        }
        return (scanned?.tags ?? TrackTags(), scanned?.chapters ?? [])
    }

    /// What codec the bytes are, without opening a decoder; throws what playing them would.
    /// On the blocking pool, not this actor's thread: that one may be held by a track whose
    /// station stalls, and an `OpenUri` checks its new track while the old one still plays.
    package nonisolated func probe(_ source: any ByteSource) async throws -> AudioCodec {
        try await BlockingPool.shared.run { try FormatSniffer.sniff(source).codec }
    }

    package static func open(_ source: any ByteSource) throws -> any AudioDecoder {
        switch try FormatSniffer.sniff(source) {
        case .mp3(let exactLength): try MP3Decoder(source: source, exactLength: exactLength)
        case .opus: try OpusDecoder(source: source)
        case .flac(let ogg): try FLACDecoder(source: source, ogg: ogg)
        case .vorbis: try VorbisDecoder(source: source)
        case .pcmFile: try PCMFileDecoder(source: source)
        case .mp4: try MP4Decoder(source: source)
        case .adts: try ADTSDecoder(source: source)
        }
    }
}

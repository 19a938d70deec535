import Base
import Logging
import Model

/// Live streams: decoded part after part (one per connection), their songs marked in the PCM
/// where they begin.
extension DecoderActor {
    /// Decodes a station from its first part on, until the stream fails or the task is cancelled.
    /// Each part (a reconnect) gets a decoder of its own; positions run on from the start of
    /// listening. A song change — a new Ogg link, an ICY title — goes into the queue as
    /// `.streamTags` at the frame where it begins, so the output reports it as it is heard.
    /// A stream with a whole timeline (an HLS playlist that ends) has a length and starts at
    /// `start`: from the segment that holds it, the frames before it dropped.
    func decodeLive(_ entry: QueueEntry, from first: any LiveByteSource, startingAt start: Double,
                    into packets: BoundedQueue<PCMPacket>) async throws {
        var part = first
        let duration = part.duration
        // At or past the end of a stream on demand (a resume position): its last moment, which
        // ends it at once, as a file's seek to its end does.
        let start = duration.map { min(max(0, start), max(0, $0 - 0.01)) } ?? 0
        let begins = duration == nil ? 0 : try part.start(at: start)
        // Where in the part the decoder's bytes begin: past 0 once a decoder was made afresh
        // mid-stream (a damaged stretch, a change of rate).
        var shift: Int64 = 0
        var decoder: (any AudioDecoder)? = try Self.firstDecoder(from: &part)
        var info = decoder!.info
        let rate = Double(info.format.sampleRate)
        info.totalFrames = duration.map { Int64(($0 * rate).rounded()) }
        info.isLive = duration == nil
        info.tags = part.station.tags
        // The frame the decoder's first sample is, and the frames before `start` to drop.
        var played = Int64((begins * rate).rounded())
        var dropping = duration == nil ? 0 : max(0, Int64((start * rate).rounded()) - played)
        await packets.send(.trackStart(entry, info, startFrame: played + dropping))
        // The input bytes the last read ended at.
        var consumed: Int64 = 0
        var warned = false
        var ahead: [(frame: Int, tags: TrackTags)] = []
        do {
            var size = Self.firstPacketFrames
            while !Task.isCancelled {
                guard let current = decoder else {
                    // The connection ended here; the next one (a reconnect) is a stream of its own.
                    // None: the stream ended (a file sent without a length), and so does the track.
                    guard let next = try part.next() else { break }
                    part = next
                    (shift, consumed) = (0, 0)
                    decoder = try Self.decoder(for: part, from: &shift)
                    continue
                }
                var samples: PCMSamples
                do {
                    samples = try current.read(maxFrames: size)
                } catch let error as DecoderError {
                    // A damaged stretch (or a connection cut mid-frame), or an MP3 station that
                    // changed its rate (an advert): libmpg123 takes one rate a stream. A decoder
                    // starts afresh from here, past what is not audio, and plays on.
                    if case .formatChanged = error {} else if !warned {
                        warned = true
                        Self.logger.warning("a damaged stretch in a station's stream: played on past it",
                                            metadata: ["station": "\(part.station.name ?? entry.displayName)", "reason": "\(error)"])
                    }
                    // At least a byte on: a decoder that failed without taking any would fail again.
                    shift += max(1, current.inputPosition)
                    consumed = shift
                    decoder = try Self.decoder(for: part, from: &shift)
                    continue
                }
                if samples.isEmpty {
                    // Songs said to begin past the last audio: they begin where it ended.
                    for mark in ahead { await packets.send(.streamTags(entry, mark.tags)) }
                    (decoder, ahead) = (nil, [])
                    continue
                }
                if current.info.format != info.format {
                    // Another rate or channel count (a new link, a new connection): the output reopens.
                    let seconds = Double(played) / Double(info.format.sampleRate)
                    info.format = current.info.format
                    played = Int64((seconds * Double(info.format.sampleRate)).rounded())
                    await packets.send(.trackStart(entry, info, startFrame: played))
                }
                var frames = samples.count / info.format.channels
                var marks = ahead + songStarts(in: frames, of: current, part: part, shift: shift, since: consumed)
                // A song the decoder places past this read's frames (in a frame it decoded ahead)
                // is marked in the next read, where it is.
                ahead = marks.filter { $0.frame > frames }.map { ($0.frame - frames, $0.tags) }
                marks.removeAll { $0.frame > frames }
                consumed = shift + current.inputPosition
                if dropping > 0 {
                    // Before where a seek asked to start: not heard (a title among them still counts).
                    let cut = Int(min(dropping, Int64(frames)))
                    (dropping, played, frames) = (dropping - Int64(cut), played + Int64(cut), frames - cut)
                    samples = samples.slice((cut * info.format.channels)..<samples.count)
                    marks = marks.map { (max(0, $0.frame - cut), $0.tags) }
                    if frames == 0 { for mark in marks { await packets.send(.streamTags(entry, mark.tags)) }; continue }
                }
                await send(samples, marking: marks, of: entry, channels: info.format.channels, into: packets)
                played += Int64(frames)
                size = min(size * 2, Self.packetFrames)
            }
        } catch {
            await packets.send(.trackEnd(entry))
            throw error
        }
        await packets.send(.trackEnd(entry))
    }

    /// The stream's first decoder: of its first part with audio. A part that ended before any
    /// came (a stream that failed at once: an HLS key refused) is passed for the next, whose
    /// reading says why the stream ended.
    private static func firstDecoder(from part: inout any LiveByteSource) throws -> any AudioDecoder {
        while true {
            do {
                return try open(part)
            } catch DecoderError.empty {
                guard let next = try part.next() else { throw DecoderError.empty }
                part = next
            }
        }
    }

    /// A decoder for `part` from `shift` on, past stretches that are not audio (`shift` moves on
    /// past them); nil once the part has ended.
    private static func decoder(for part: any LiveByteSource, from shift: inout Int64) throws -> (any AudioDecoder)? {
        while true {
            do {
                return try open(shift == 0 ? part : ShiftedSource(base: part, shift: shift))
            } catch DecoderError.empty {
                return nil
            } catch DecoderError.notAudio {
                shift += Int64(FormatSniffer.searchWindow)
            }
        }
    }

    /// Where songs begin in the `frames` the last read returned: a new link at its frame; an ICY
    /// title at the share of the read's input bytes that came before it (exact for constant bit
    /// rates, within a read otherwise).
    private func songStarts(in frames: Int, of decoder: any AudioDecoder, part: any LiveByteSource, shift: Int64,
                            since consumed: Int64) -> [(frame: Int, tags: TrackTags)] {
        var marks: [(frame: Int, tags: TrackTags)] = []
        if let link = decoder.takeLinkStart() { marks.append((min(link.frame, frames), link.tags)) }
        let position = shift + decoder.inputPosition
        for title in part.takeTitles(through: position) {
            if let exact = decoder.frame(atInput: title.offset - shift) {
                // Where the decoder says (the first sample of this read is `position - frames`).
                marks.append((Int(max(exact - (decoder.position - Int64(frames)), 0)), title.tags))
                continue
            }
            let share = position > consumed ? Double(title.offset - consumed) / Double(position - consumed) : 0
            marks.append((Int((min(max(share, 0), 1) * Double(frames)).rounded()), title.tags))
        }
        return marks.sorted { $0.frame < $1.frame }
    }

    /// Sends `samples` cut where `marks` fall, each mark's tags between the pieces.
    private func send(_ samples: PCMSamples, marking marks: [(frame: Int, tags: TrackTags)], of entry: QueueEntry,
                      channels: Int, into packets: BoundedQueue<PCMPacket>) async {
        var from = 0
        for mark in marks {
            let at = mark.frame * channels
            if at > from { await packets.send(.samples(samples.slice(from..<at))) }
            await packets.send(.streamTags(entry, mark.tags))
            from = max(from, at)
        }
        if from < samples.count { await packets.send(.samples(from == 0 ? samples : samples.slice(from..<samples.count))) }
    }
}

/// A live part from `shift` on: what a decoder made afresh mid-stream reads.
private struct ShiftedSource: ByteSource {
    let base: any LiveByteSource
    let shift: Int64

    var length: Int64? { nil }

    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws -> Int {
        try base.read(into: buffer, at: offset + shift)
    }

    func cancel() {
        base.cancel()
    }
}

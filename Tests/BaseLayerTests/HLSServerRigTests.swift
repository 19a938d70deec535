import Foundation
import Testing
import TestSupport

/// The HLS rig the HLS player's tests stand on, checked with real clients (curl, ffmpeg's HLS
/// demuxer, ffprobe, mutagen) before a player is trusted against it: nginx serves each file with
/// its type and logs each request; every VOD set — encrypted ones too — decodes over HTTP to the
/// PCM it was made from, a tone whose pitch says which part is playing; packed-audio segments
/// carry their timestamps and titles; live playlists slide. Each set's making time is printed,
/// so what the rig costs is known.
@Suite(.timeLimit(.minutes(3)))
struct HLSServerRigTests {
    @Test("nginx serves each HLS file with its type, playlists with no-cache, 404 for a deleted file, and logs each request")
    func typesAndLog() async throws {
        let server = try await HLSServer()
        let ts = try await HLSFixtures.shared.publish(.encrypted, on: server)
        let fmp4 = try await HLSFixtures.shared.publish(.fmp4AAC, on: server)
        let packed = try await HLSFixtures.shared.publish(.packedAudio, on: server)
        let expected: [(URL, String)] = [
            (ts.playlistURL, "application/vnd.apple.mpegurl"), (ts.url(ts.segments[0]), "video/mp2t"),
            (ts.url("aes.key"), "application/octet-stream"), (fmp4.url("init.mp4"), "video/mp4"),
            (fmp4.url(fmp4.segments[0]), "audio/mp4"), (packed.url(packed.segments[0]), "audio/aac"),
        ]
        for (url, type) in expected {
            let head = try await headers(url)
            #expect(head.hasPrefix("HTTP/1.1 200"), "\(url): \(head)")
            #expect(head.contains("\r\nContent-Type: \(type)\r\n"), "\(url): \(head)")
            #expect(head.contains("Cache-Control: no-cache") == url.pathExtension.hasSuffix("m3u8"), "\(url): \(head)")
        }
        try ts.remove(ts.segments[1])
        #expect(try await headers(ts.url(ts.segments[1])).hasPrefix("HTTP/1.1 404"))
        let key = try Fixtures.shared.scratchDirectory().appendingPathComponent("key")
        try await ChildProcess.check("curl", ["-sf", "-m", "30", "-o", key.path, ts.url("aes.key").absoluteString])
        #expect(try Data(contentsOf: key) == ts.key)
        let keyPath = ts.requestPath("aes.key")
        let logged = try await server.waitForRequests(to: keyPath, count: 2)
        #expect(logged.map(\.description) == ["HEAD \(keyPath) 200 0 bytes", "GET \(keyPath) 200 16 bytes"], "\(logged)")
        try await server.waitForRequests(to: ts.requestPath(ts.segments[1]))
        #expect(server.requests().filter { $0.status == 404 }.map(\.path) == [ts.requestPath(ts.segments[1])])
        #expect(server.count(of: keyPath) == 1 && server.fetchedTwice().isEmpty, "\(server.requests())")
    }

    @Test("each VOD set, made by ffmpeg, decodes over HTTP with ffmpeg to its reference PCM, each part at its pitch",
          arguments: HLSFixtures.Kind.allCases)
    func vodSetDecodesOverHTTP(_ kind: HLSFixtures.Kind) async throws {
        let server = try await HLSServer()
        let set = try await HLSFixtures.shared.publish(kind, on: server)
        print("HLS fixture \(kind.rawValue): made in \(set.madeIn), \(set.segments.count) segments, \(set.reference)")
        let heard = try await decode(kind == .master ? set.variants[0].playlistURL : set.playlistURL)
        #expect(heard == set.reference, "over HTTP \(heard), from the files \(set.reference)")
        #expect(server.fetchedTwice().isEmpty, "\(server.fetchedTwice())")
        let source = set.source
        #expect(Double(set.reference.frameCount) >= source.seconds! * 44100, "\(set.reference)")
        #expect(set.segments.count == 10 && set.durations.allSatisfy { $0 <= 2.03 }, "\(set.durations)")
        let listed: Double = set.durations.reduce(0, +), decoded = Double(set.reference.frameCount) / 44100
        #expect(abs(listed - decoded) < 0.05, "\(set.durations)")
        for part in source.frequencies.indices.dropLast() {
            let heard = set.reference.toneFrequency(at: Double(part) * source.partSeconds + 1) ?? 0
            #expect(abs(heard - Double(source.frequency(ofPart: part))) < 15, "part \(part): \(heard) Hz")
        }
        switch kind {
        case .encrypted, .encryptedWithIV:
            #expect(server.count(of: set.requestPath("aes.key")) == 1, "\(server.requests())")
            let segment = try Data(contentsOf: set.folder.appendingPathComponent(set.segments[0]))
            #expect(segment.first != 0x47 && segment.count % 16 == 0, "not AES-128-CBC: \(segment.prefix(4).map { $0 })")
            let playlist = try String(contentsOf: set.folder.appendingPathComponent("index.m3u8"), encoding: .utf8)
            let keyLine = kind == .encrypted ? #"#EXT-X-KEY:METHOD=AES-128,URI="aes.key""# + "\n"
                : #"#EXT-X-KEY:METHOD=AES-128,URI="aes.key",IV=0x"# + set.iv! + "\n"
            #expect(playlist.contains(keyLine), "\(playlist)")
            #expect(set.mediaSequence == (kind == .encrypted ? 7 : 0) && set.segments[0] == "seg\(set.mediaSequence).ts")
            // A wrong IV spoils only a segment's first 16 bytes (CBC), which a demuxer skips as a
            // broken packet: each segment is decrypted with the IV it must have, and compared to
            // the plain set's (the same ffmpeg run but for the key: the same bytes).
            let plain = try await HLSFixtures.shared.publish(.tsAAC, on: server)
            for (index, name) in set.segments.enumerated() {
                let iv = set.iv ?? String(format: "%032x", set.mediaSequence + index)
                let decrypted = try await decrypt(set.folder.appendingPathComponent(name), key: set.key!, iv: iv)
                #expect(decrypted == (try Data(contentsOf: plain.folder.appendingPathComponent(plain.segments[index]))), "\(name), IV \(iv)")
            }
        case .master:
            let master = try String(contentsOf: set.folder.appendingPathComponent("master.m3u8"), encoding: .utf8)
            #expect(set.variants.map(\.name) == ["low", "mid", "high"])
            #expect(set.variants.map(\.bandwidth) == set.variants.map(\.bandwidth).sorted() && set.variants.allSatisfy { $0.codecs == "mp4a.40.2" })
            for variant in set.variants {
                #expect(master.contains("BANDWIDTH=\(variant.bandwidth),CODECS=\"mp4a.40.2\"\n\(variant.name)/index.m3u8\n"), "\(master)")
                #expect(try await decode(variant.playlistURL) == variant.reference, "\(variant.name)")
                #expect(variant.reference.frameCount == set.reference.frameCount)
            }
            let fromMaster = try await decode(set.playlistURL)
            #expect(fromMaster.frameCount == set.reference.frameCount, "\(fromMaster)")
        case .fmp4AAC:
            #expect(try String(contentsOf: set.folder.appendingPathComponent("index.m3u8"), encoding: .utf8)
                .contains(#"#EXT-X-MAP:URI="init.mp4""#))
        case .packedAudio:
            let probe = try await ChildProcess.check("ffprobe", ["-v", "error", "-show_entries", "stream=codec_name,start_time",
                                                                 "-of", "csv=p=0", set.playlistURL.absoluteString])
            #expect(probe.stdout.split(separator: "\n").first == "aac,10.000000", "\(probe.stdout)")
        case .tsAAC, .tsMP3:
            break
        }
    }

    @Test("packed-audio segments: an ID3v2.4 tag with the PRIV timestamp of their first sample, then ADTS; titles from their segment on")
    func packedAudioTags() async throws {
        let server = try await HLSServer()
        let set = try await HLSFixtures.shared.publish(.packedAudio, on: server)
        let tags = try await HLSPackedTag.read(set.segments.map { set.folder.appendingPathComponent($0) })
        #expect(tags.count == 10)
        for (index, tag) in tags.enumerated() {
            // 86 frames of 1,024 samples a segment, at 44.1 kHz.
            #expect(tag.version == [2, 4, 0] && tag.owner == "com.apple.streaming.transportStreamTimestamp")
            #expect(tag.pts == HLSFixtures.packedStartPTS + index * 86 * 1024 * 90000 / 44100, "segment \(index): \(tag.pts)")
            let title = HLSFixtures.packedTitles.last { $0.segment <= index }!
            #expect(tag.artist == title.artist && tag.title == title.title, "segment \(index): \(tag)")
            let bytes = try Data(contentsOf: set.folder.appendingPathComponent(set.segments[index]))
            let size = bytes[6...9].reduce(0) { $0 << 7 | Int($1) }
            #expect(bytes.prefix(5) == Data("ID3\u{4}\u{0}".utf8) && bytes[10 + size] == 0xFF && bytes[11 + size] & 0xF0 == 0xF0)
        }
        #expect(tags.map(\.title) == ["Song 1", "Song 1", "Song 1", "Song 2", "Song 2", "Song 2", "Sóng 3", "Sóng 3", "Sóng 3", "Sóng 3"])
    }

    @Test("ffmpeg's live playlist slides: the media sequence grows, old segments are deleted, no ENDLIST; it plays over HTTP")
    func liveSlides() async throws {
        let server = try await HLSServer()
        let started = ContinuousClock.now
        let live = try await HLSLiveEncoder(on: server)
        print("HLS live ffmpeg: first segment after \(ContinuousClock.now - started)")
        let full = try await live.waitForSegments(live.listSize + 2)
        #expect(full.mediaSequence >= 2 && full.segments.count == live.listSize && !full.ended, "\(full.lines)")
        #expect(full.segments.last == "seg\(full.segmentsMade - 1).ts", "\(full.segments)")
        // ffmpeg deletes a segment once it is two out of the playlist (one kept for late readers).
        #expect(try await eventually { !FileManager.default.fileExists(atPath: live.folder.appendingPathComponent("seg0.ts").path) })
        let head = try await headers(live.playlistURL)
        #expect(head.contains("Cache-Control: no-cache") && head.contains("application/vnd.apple.mpegurl"), "\(head)")
        let heard = try await decode(live.playlistURL, seconds: 1)
        #expect(abs(heard.frameCount - 44100) <= 1024, "\(heard)")
        let ended = try await live.end()
        #expect(ended.ended && ended.segments.count == live.listSize, "\(ended.lines)")
        // Ended, it is a finite stream: ffmpeg plays from its live start to the end, and stops.
        let rest = try await decode(live.playlistURL)
        #expect(rest.frameCount > 44100 && rest.frameCount <= 44100 * live.listSize + 2048, "\(rest)")
    }

    @Test("the live packed-audio playlist slides and its segments carry growing timestamps and each song's title from its segment on")
    func livePackedSlides() async throws {
        let server = try await HLSServer()
        let started = ContinuousClock.now
        let live = try await HLSLiveEncoder(.packedAudio, on: server, listSize: 6)
        print("HLS live packed: first segment after \(ContinuousClock.now - started)")
        let playlist = try await live.waitForSegments(8)
        #expect(playlist.mediaSequence >= 2 && playlist.segments.count == 6 && !playlist.ended, "\(playlist.lines)")
        #expect(try await eventually { !FileManager.default.fileExists(atPath: live.folder.appendingPathComponent("seg0.aac").path) })
        // The newest three: the writer deletes the oldest as it goes on, and on a loaded machine
        // it may go on by a few while the tags are read.
        let newest = playlist.segments.suffix(3).map { live.folder.appendingPathComponent($0) }
        let tags = try await HLSPackedTag.read(newest)
        for (offset, tag) in tags.enumerated() {
            let number = playlist.segmentsMade - 3 + offset
            let title = live.titles.last { $0.segment <= number }!
            #expect(tag.artist == title.artist && tag.title == title.title, "segment \(number): \(tag)")
            // 43 frames of 1,024 samples a segment; the PTS starts at 10 s.
            #expect(tag.pts == 900_000 + number * 43 * 1024 * 90000 / 44100, "segment \(number): \(tag.pts)")
        }
        await live.stop()
    }

    // MARK: Clients

    /// `curl -I`'s answer head (a HEAD request; nginx answers it as it would the GET).
    private func headers(_ url: URL) async throws -> String {
        try await ChildProcess.check("curl", ["-sI", "-m", "30", url.absoluteString]).stdout
    }

    /// `file` decrypted by openssl: AES-128-CBC, PKCS#7 padding.
    private func decrypt(_ file: URL, key: Data, iv: String) async throws -> Data {
        let output = try Fixtures.shared.scratchDirectory().appendingPathComponent("plain")
        try await ChildProcess.check("openssl", ["enc", "-d", "-aes-128-cbc", "-K", key.map { String(format: "%02x", $0) }.joined(),
                                                 "-iv", iv, "-in", file.path, "-out", output.path])
        return try Data(contentsOf: output)
    }

    /// ffmpeg's HLS demuxer's decoding of `url` over HTTP, 16-bit, the first audio stream;
    /// only `seconds` of it when given (a live stream never ends).
    private func decode(_ url: URL, seconds: Int? = nil) async throws -> PCMAudio {
        let output = try Fixtures.shared.scratchDirectory().appendingPathComponent("heard.wav")
        try await ChildProcess.check("ffmpeg", ["-nostdin", "-loglevel", "error", "-i", url.absoluteString, "-map", "0:a:0"]
                                     + (seconds.map { ["-t", "\($0)"] } ?? []) + ["-c:a", "pcm_s16le", output.path])
        return try PCMAudio(wavFile: output)
    }
}

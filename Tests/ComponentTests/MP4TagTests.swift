import Decoding
import Foundation
import Loader
import Model
import Parsers
import Testing
import TestSupport

/// iTunes tags in MP4, written by mutagen (PyPI) as iTunes writes them, read by a scan within
/// its budget — a 2 MB cover stepped over — and whole when the track plays.
@Suite struct MP4TagTests {
    /// Tags `file` in place: text items, track and disc numbers, freeform ReplayGain, label and
    /// MusicBrainz items (as Picard writes them), and a cover of `coverBytes` bytes.
    static func tag(_ file: URL, coverBytes: Int) async throws {
        let script = """
            import sys
            from mutagen.mp4 import MP4, MP4Cover, MP4FreeForm
            audio = MP4(sys.argv[1])
            audio["\\xa9nam"] = "The Title"
            audio["\\xa9ART"] = "The Artist"
            audio["\\xa9alb"] = "The Album"
            audio["aART"] = "Various"
            audio["\\xa9day"] = "2021-03-04"
            audio["\\xa9gen"] = "Jazz"
            audio["trkn"] = [(3, 12)]
            audio["disk"] = [(1, 2)]
            audio["----:com.apple.iTunes:replaygain_track_gain"] = [MP4FreeForm(b"-6.50 dB")]
            audio["\\xa9wrt"] = "Clara Voss"
            audio["soar"] = "Artist, The"
            audio["----:com.apple.iTunes:MusicBrainz Album Id"] = [MP4FreeForm(b"0f3a1c2e-2222-4a4a-9b9b-000000000002")]
            audio["----:com.apple.iTunes:LABEL"] = [MP4FreeForm(b"Lighthouse Records")]
            audio["covr"] = [MP4Cover(b"\\xff\\xd8\\xff" + bytes(int(sys.argv[2]) - 3), imageformat=MP4Cover.FORMAT_JPEG)]
            audio.save()
            """
        try await ChildProcess.check("python3", ["-c", script, file.path, "\(coverBytes)"])
    }

    @Test("a scan of a tagged M4A (moov at the end or first) reads every tag and the exact length within 70 KiB, stepping over a 2 MB cover",
          arguments: ["aac-moov-at-end.m4a", "aac-faststart.m4a", "alac16.m4a"])
    func scanBudget(_ name: String) async throws {
        let variant = try #require(MP4DecoderTests.variants.first { $0.name == name })
        let (file, frames) = try await MP4DecoderTests.encode(variant)
        let cover = 2 * 1024 * 1024
        try await Self.tag(file, coverBytes: cover)
        let bytes = try [UInt8](Data(contentsOf: file))
        var fetched = 0
        let scanned = try await TagReader.read(length: Int64(bytes.count), pictures: false) { range in
            fetched += range.count
            return Array(bytes[Int(range.lowerBound)..<Int(range.upperBound)])
        }
        #expect(fetched <= 70 * 1024, "\(fetched) bytes of \(bytes.count)")
        #expect(scanned.codec == (name.hasPrefix("alac") ? .alac : .aac))
        #expect(scanned.duration == Double(frames) / 44100, "the edit list's length, exactly")
        let tags = scanned.tags
        #expect(tags.title == "The Title" && tags.artist == "The Artist" && tags.album == "The Album" && tags.albumArtist == "Various")
        #expect(tags.year == 2021 && tags.genre == "Jazz" && tags.trackNumber == 3 && tags.discNumber == 1)
        #expect(tags.replayGain.trackGain == -6.5)
        #expect(tags.more == [.date: "2021-03-04", .composer: "Clara Voss", .artistSort: "Artist, The", .label: "Lighthouse Records",
                              .musicBrainzAlbumID: "0f3a1c2e-2222-4a4a-9b9b-000000000002"], "\(tags.more)")
        #expect(tags.artwork == nil)
        let played = try await TagReader.read(length: Int64(bytes.count), pictures: true) { range in
            Array(bytes[Int(range.lowerBound)..<Int(range.upperBound)])
        }
        #expect(played.tags.artwork?.data.count == cover && played.tags.artwork?.fileExtension == "jpg")
        // And the tagged file still plays to its exact length.
        let decoded = PCMFileDecoderTests.readToEnd(try DecoderActor.open(try FileByteSource(path: file.path)))
        #expect(decoded.error == nil && decoded.samples.count == frames * 2)
    }
}

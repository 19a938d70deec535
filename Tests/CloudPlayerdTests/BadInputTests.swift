import Foundation
import Testing
import TestSupport

/// Bad input gets one clear line naming the file and the reason; the queue goes on; the exit
/// status says something failed. Never a crash, never a hang.
@Suite struct BadInputTests {
    enum Case: String, CaseIterable, Sendable {
        case empty, random, text, adpcmWAV, truncatedMP3, truncatedOpus, corruptMP3, missing, directory
        case truncatedFLAC, corruptFLAC, lyingFLAC, truncatedVorbis, brokenChainVorbis

        var reason: String {
            switch self {
            case .empty: "empty file"
            case .random, .text: "not an audio file"
            case .adpcmWAV: "WAV format 0x2 (compressed audio in WAV)"
            case .truncatedMP3, .corruptMP3: "truncated or damaged"
            case .truncatedOpus, .truncatedVorbis: "truncated"
            case .truncatedFLAC, .lyingFLAC: "truncated or damaged"
            case .corruptFLAC: "a damaged frame (CRC mismatch)"
            case .brokenChainVorbis: "Vorbis decoding failed"
            case .missing: "no such file"
            case .directory: "not a regular file"
            }
        }

        func path() async throws -> String {
            switch self {
            case .empty: try await Fixtures.shared.url(.empty).path
            case .random: try await Fixtures.shared.url(.random).path
            case .text: try await Fixtures.shared.url(.text).path
            case .adpcmWAV: try await Fixtures.shared.url(.adpcmWAV).path
            case .truncatedMP3: try await Fixtures.shared.url(.truncatedMP3).path
            case .truncatedOpus: try await Fixtures.shared.url(.truncatedOpus).path
            case .corruptMP3: try await Fixtures.shared.url(.corruptMP3).path
            case .truncatedFLAC: try await Fixtures.shared.url(.truncatedFLAC).path
            case .corruptFLAC: try await Fixtures.shared.url(.corruptFLAC).path
            case .lyingFLAC: try await Fixtures.shared.url(.lyingFLAC).path
            case .truncatedVorbis: try await Fixtures.shared.url(.truncatedVorbis).path
            case .brokenChainVorbis: try await Fixtures.shared.url(.brokenChainVorbis).path
            case .missing: try Fixtures.shared.scratchDirectory().appendingPathComponent("gone.mp3").path
            case .directory: try Fixtures.shared.scratchDirectory().path
            }
        }

        /// Whether the file yields some audio before its error.
        var playsPartly: Bool {
            [.truncatedMP3, .truncatedOpus, .corruptMP3, .truncatedFLAC, .corruptFLAC, .lyingFLAC, .truncatedVorbis,
             .brokenChainVorbis].contains(self)
        }

        /// A good file of the bad one's format and shape, which then shares its WAV.
        var goodNeighbour: Fixtures.File {
            switch self {
            case .truncatedOpus: .opus
            case .truncatedFLAC, .corruptFLAC, .lyingFLAC: .flac
            case .truncatedVorbis, .brokenChainVorbis: .vorbis
            default: .cbrMP3
            }
        }
    }

    @Test("A bad file: one line naming it and why, then the next file plays", arguments: Case.allCases)
    func badFileThenGoodFile(_ bad: Case) async throws {
        let badPath = try await bad.path()
        // A good file of the bad one's format follows, so a partly played file shares the WAV.
        let good = bad.goodNeighbour
        let goodURL = try await Fixtures.shared.url(good)
        let output = try Fixtures.shared.scratchDirectory().appendingPathComponent("out.wav")
        let result = try await BuiltProducts.runCloudPlayerd(["play", "--quiet", "--output", "wav:\(output.path)", badPath, goodURL.path])

        #expect(result.status == 1)
        #expect(!result.killedBySignal)
        // Our own lines; libmpg123 may add one of its own for some damaged data (see MP3Decoder).
        let ours = result.errorLines.filter { $0.hasPrefix("cloudplayerd: ") }
        #expect(ours.count == 1, "stderr: \(result.stderr)")
        #expect(result.errorLines.count == 1 || bad == .corruptMP3, "stderr: \(result.stderr)")
        let line = try #require(ours.first)
        #expect(line.contains(badPath))
        #expect(line.contains(bad.reason), "\(line)")

        let written = try PCMAudio(wavFile: output)
        let reference = switch good {
        case .opus: try await ReferenceDecoder.opusdec(goodURL)
        case .flac: try await ReferenceDecoder.flac(goodURL).pcm16()
        case .vorbis: try await ReferenceDecoder.oggdec(goodURL)
        default: try await ReferenceDecoder.mpg123(goodURL)
        }
        if bad.playsPartly {
            #expect(written.frameCount > reference.frameCount)
            #expect(written.frames(from: written.frameCount - reference.frameCount) == reference)
        } else {
            #expect(written == reference)
        }
    }

    @Test("A truncated MP3 plays every frame it has, as mpg123 does")
    func truncatedPlaysWhatItHas() async throws {
        let url = try await Fixtures.shared.url(.truncatedMP3)
        let output = try Fixtures.shared.scratchDirectory().appendingPathComponent("out.wav")
        let result = try await BuiltProducts.runCloudPlayerd(["play", "-q", "-o", "wav:\(output.path)", url.path])
        #expect(result.status == 1)
        #expect(try PCMAudio(wavFile: output) == (try await ReferenceDecoder.mpg123(url)))
    }

    @Test("Only bad files: every one reported, exit 1, and no empty WAV left behind")
    func onlyBadFiles() async throws {
        var paths: [String] = []
        for bad in [Case.empty, .random, .adpcmWAV, .missing] { paths.append(try await bad.path()) }
        let output = try Fixtures.shared.scratchDirectory().appendingPathComponent("out.wav")
        let result = try await BuiltProducts.runCloudPlayerd(["play", "-o", "wav:\(output.path)"] + paths)
        #expect(result.status == 1)
        #expect(result.errorLines.count == paths.count)
        #expect(result.stdout.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: output.path))
    }

    @Test("No PulseAudio server: a clear error that suggests --output")
    func noSoundServer() async throws {
        let file = try await Fixtures.shared.url(.cbrMP3)
        let nowhere = try Fixtures.shared.scratchDirectory().appendingPathComponent("no-server").path
        let result = try await BuiltProducts.runCloudPlayerd(["play", file.path], environment: ["PULSE_SERVER": "unix:\(nowhere)"])
        #expect(result.status == 2)
        #expect(result.errorLines.count == 1)
        #expect(result.stderr.contains("cannot connect to PulseAudio"))
        #expect(result.stderr.contains("--output null"))
    }

    @Test("Bad options are refused with usage help, before anything plays",
          arguments: [["--output", "speakers"], ["--start", "-3"], ["--volume", "-1"], ["--unpaced"], []])
    func badOptions(_ options: [String]) async throws {
        let file = try await Fixtures.shared.url(.cbrMP3)
        let files = options.isEmpty ? [] : [file.path]
        let result = try await BuiltProducts.runCloudPlayerd(["play"] + options + files)
        #expect(result.status == 64)
        #expect(result.stderr.contains("Error:"))
        #expect(result.stdout.isEmpty)
    }

    /// MPD logs "Failed to decode" at its default level; a track skipped in silence (a wrong
    /// password, a damaged file) left a daemon's user without a word of why.
    @Test("a queued track that cannot play is skipped with a notice in the journal at the default level, naming it and why; the next plays")
    func skippedTrackNotice() async throws {
        let rig = try await DaemonRig.start()
        defer { Task { await rig.stop() } }
        let bad = try Fixtures.shared.scratchDirectory().appendingPathComponent("not-a-song.mp3")
        try Data("this is text, not audio\n".utf8).write(to: bad)
        let good = try await Fixtures.shared.url(.cbrMP3)
        #expect(try await rig.ctl("queue", "add", "--play", bad.path, good.path).status == 0)
        #expect(try await eventually(within: 60) { try await rig.property("PlaybackStatus") == "s \"Playing\"" })
        #expect(try await eventually(within: 60) {
            rig.daemon.errorSoFar().split(separator: "\n").contains {
                $0.contains("notice") && $0.contains("track failed") && $0.contains("not-a-song.mp3") && $0.contains("reason=")
            }
        }, "\(rig.daemon.errorSoFar().suffix(2000))")
    }
}

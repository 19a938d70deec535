import Foundation
import Testing
import TestSupport

/// A cache on a slow disk (an SD card, a network home, a disk busy with something else): every
/// `fdatasync` of the player's takes 3 s, made so by strace's fault injection. Syncing the cache
/// must hold up neither the downloads nor a stop.
@Suite(.timeLimit(.minutes(3)))
struct SlowDiskTests {
    /// `cloudplayerd ARGUMENTS…` under strace, each of its fdatasync calls delayed by 3 s.
    private func slowSyncing(_ arguments: [String]) throws -> ChildProcess {
        try ChildProcess("strace", ["-f", "-qq", "--seccomp-bpf", "-o", "/dev/null", "-e", "trace=fdatasync",
                                    "-e", "inject=fdatasync:delay_enter=3000000", BuiltProducts.cloudplayerd] + arguments,
                         environment: BuiltProducts.isolation)
    }

    @Test("every sync of the cache taking 3 s, with a 1 s read timeout: no download breaks off, each byte is fetched once, and the track plays whole")
    func downloadsGoOn() async throws {
        let rig = try await StreamingRig([.longMP3])
        let origin = try rig.origin(.longMP3)
        let result = try await slowSyncing(["play", "--no-mpris", "--output", "null", "--unpaced", "--log-level", "notice",
                                            "--config", try rig.configFile(readTimeout: 1), rig.url(.longMP3).absoluteString]).wait()
        #expect(result.status == 0, "\(result.ending): \(result.stderr)")
        #expect(!result.stderr.contains("download interrupted"), "\(result.stderr)")
        #expect(rig.proxy.bodyBytesSent == origin.count, "\(rig.proxy.log.map { "\($0.range ?? "-") \($0.status) \($0.bodyBytes)" })")
    }

    @Test("a SIGTERM while a download is under way and every sync takes 3 s: play stops in time (exit status 0) and says the last bytes were not recorded")
    func stopsInTime() async throws {
        let rig = try await StreamingRig([.longMP3])
        let origin = try rig.origin(.longMP3)
        // Thirty seconds of download: under way, with bytes written since the last commit, at the stop.
        rig.proxy.setRate(bytesPerSecond: origin.count / 30)
        let traced = try slowSyncing(["play", "--no-mpris", "--output", "null", "--log-level", "notice",
                                      "--config", try rig.configFile(), rig.url(.longMP3).absoluteString])
        #expect(try await eventually { traced.outputSoFar().contains("Playing") })
        // strace's child is the player.
        let children = try String(contentsOfFile: "/proc/\(traced.pid)/task/\(traced.pid)/children", encoding: .utf8)
        let player = try #require(children.split(separator: " ").first.flatMap { pid_t($0) })
        kill(player, SIGTERM)
        let result = await traced.wait()
        #expect(result.status == 0, "\(result.ending): \(result.stderr)")
        #expect(result.stderr.contains("the cache disk is slow"), "\(result.stderr)")
    }
}

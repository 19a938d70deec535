import Foundation
import Testing
import TestSupport

/// A cache on a slow disk (an SD card, a network home, a disk busy with something else): every
/// `fdatasync` of the player's takes 3 s, made so by strace's fault injection. Syncing the cache
/// must hold up neither the downloads nor a stop.
@Suite(.timeLimit(.minutes(3)))
struct SlowDiskTests {
    /// `cloudplayerd ARGUMENTS…` under strace, each of its `call`s (fdatasync: the cache's
    /// syncs; fsync: `AtomicFile`'s; pwrite64: the cache's writes) delayed by `seconds` — or
    /// only those `when` picks (strace's `first+step`: "3" the third alone, "3+" each from it).
    private func slowDisk(_ arguments: [String], call: String = "fdatasync", seconds: Int = 3, when: String? = nil,
                             environment: [String: String] = BuiltProducts.isolation) throws -> ChildProcess {
        let injection = "inject=\(call):delay_enter=\(seconds * 1_000_000)" + (when.map { ":when=\($0)" } ?? "")
        return try ChildProcess("strace", ["-f", "-qq", "--seccomp-bpf", "-o", "/dev/null", "-e", "trace=\(call)",
                                           "-e", injection, BuiltProducts.cloudplayerd] + arguments,
                                environment: environment)
    }

    /// The program strace runs.
    private func tracee(of traced: ChildProcess) throws -> pid_t {
        let children = try String(contentsOfFile: "/proc/\(traced.pid)/task/\(traced.pid)/children", encoding: .utf8)
        return try #require(children.split(separator: " ").first.flatMap { pid_t($0) })
    }

    @Test("every sync of the cache taking 3 s, with a 1 s read timeout: no download breaks off, each byte is fetched once, and the track plays whole")
    func downloadsGoOn() async throws {
        let rig = try await StreamingRig([.longMP3])
        let origin = try rig.origin(.longMP3)
        let result = try await slowDisk(["play", "--no-mpris", "--output", "null", "--unpaced", "--log-level", "notice",
                                            "--config", try rig.configFile(readTimeout: 1), rig.url(.longMP3).absoluteString]).wait()
        #expect(result.status == 0, "\(result.ending): \(result.stderr)")
        #expect(!result.stderr.contains("download interrupted"), "\(result.stderr)")
        #expect(rig.proxy.bodyBytesSent == origin.count, "\(rig.proxy.log.map { "\($0.range ?? "-") \($0.status) \($0.bodyBytes)" })")
    }

    @Test("every twentieth write into the cache taking 2 s, with a 1 s read timeout: the download waits for each and goes on, each byte fetched once")
    func slowWriteIsNoTimeout() async throws {
        let rig = try await StreamingRig([.longMP3])
        let origin = try rig.origin(.longMP3)
        // Ten seconds of download: answers under way, with more to come, while writes are held.
        // (When the HTTP client's own read timeout counted while the consumer was busy, it fired
        // during those writes, and the 945 KB file was fetched as 1.2 MB, in pieces; `CurlTransfer`
        // stops its clock while the consumer is full.)
        rig.proxy.setRate(bytesPerSecond: origin.count / 10)
        let result = try await slowDisk(["play", "--no-mpris", "--output", "null", "--unpaced", "--log-level", "notice",
                                            "--config", try rig.configFile(readTimeout: 1), rig.url(.longMP3).absoluteString],
                                           call: "pwrite64", seconds: 2, when: "5+20").wait()
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
        let traced = try slowDisk(["play", "--no-mpris", "--output", "null", "--log-level", "notice",
                                      "--config", try rig.configFile(), rig.url(.longMP3).absoluteString])
        #expect(try await eventually { traced.outputSoFar().contains("Playing") })
        kill(try tracee(of: traced), SIGTERM)
        let result = await traced.wait()
        #expect(result.status == 0, "\(result.ending): \(result.stderr)")
        #expect(result.stderr.contains("the cache disk is slow"), "\(result.stderr)")
    }

    @Test("a SIGTERM as the daemon saves a change to a disk whose every fsync takes 2 s: it waits for the save, stops cleanly (exit 0), and comes back with it")
    func stateSavedInTime() async throws {
        let bus = try await DBusTestBus()
        let home = try Fixtures.shared.scratchDirectory()
        let environment = bus.environment.merging(["XDG_DATA_HOME": home.path, "XDG_CACHE_HOME": home.path]) { $1 }
        let traced = try slowDisk(["daemon", "--output", "null"], call: "fsync", seconds: 2, environment: environment)
        let name = "org.mpris.MediaPlayer2.cloudplayerd"
        #expect(try await bus.waitForName(name))
        #expect(try await bus.run(BuiltProducts.cloudplayerctl, ["sleep", "1h"]).status == 0)
        // At once: the change is saved as the daemon stops (a second after it otherwise).
        kill(try tracee(of: traced), SIGTERM)
        let ended = await traced.wait()
        #expect(ended.status == 0, "\(ended.ending): \(ended.stderr)")
        #expect(try await bus.waitForName(name, present: false))

        let again = try ChildProcess(BuiltProducts.cloudplayerd, ["daemon", "--output", "null"], environment: environment)
        #expect(try await bus.waitForName(name))
        let status = try await bus.run(BuiltProducts.cloudplayerctl, ["status", "--json"])
        let fields = try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any] ?? [:]
        #expect((fields["sleep_left"] as? Double ?? 0) > 3500, "\(status.stdout)")
        again.signal(SIGTERM)
        #expect(await again.wait().status == 0)
        await bus.stop()
    }
}

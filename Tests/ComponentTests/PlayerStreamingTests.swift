import Config
import Foundation
import Loader
import Output
import Playback
import SourceTypes
import Testing
import TestSupport

/// The player over the network: seeks into parts not downloaded yet, and what they cost.
@Suite(.timeLimit(.minutes(3)))
struct PlayerStreamingTests {
    /// With `fill = "whole"`, so read-ahead completes the file behind the seeks too.
    @Test("five seeks to uncached places while playing: each starts where asked, and the server sends at most 1.02 × the file",
          arguments: [Fixtures.File.longMP3, .longOpus, .longFLAC])
    func seeksFetchOnlyHoles(_ file: Fixtures.File) async throws {
        let rig = try await StreamingRig([file])
        let origin = try rig.origin(file)
        rig.proxy.setRate(bytesPerSecond: 150_000)  // slower than the seeks, so each lands on uncached bytes
        let loader = LoaderActor(configuration: try LoaderConfiguration.parse(rig.configText(fill: "whole"), relativeTo: rig.directory))
        let player = Player.running(loader: loader, output: OutputActor(device: NullOutput()))
        let log = EventLog(player)
        let location = await loader.sources.location(of: rig.url(file))
        let entries = await player.perform(.add([QueueItem(location: location)], at: .end, play: false)).queue.entries
        await player.perform(.playEntry(entries[0].id, at: 0))
        _ = try await log.trackStarted()
        for target in [41.0, 12.5, 55.0, 27.0, 4.0] {
            await player.perform(.seek(to: target))
            let (_, seconds) = try await log.trackStarted()
            #expect(abs(seconds - target) < 0.01, "asked \(target), started at \(seconds)")
        }
        rig.proxy.setRate(bytesPerSecond: nil)
        // Read-ahead completes the file while it plays.
        for _ in 0..<1200 where !(await loader.isCached(rig.url(file))) {
            try await Task.sleep(for: .milliseconds(50))
        }
        await player.shutdown()
        #expect(try rig.cache.holdsWhole(origin))
        let sent = rig.proxy.bodyBytesSent
        let requests = rig.proxy.log.filter { $0.method == "GET" }.map { "\($0.range ?? "whole"): \($0.bodyBytes)" }
        #expect(Double(sent) <= 1.02 * Double(origin.count), "sent \(sent) for a \(origin.count)-byte file: \(requests)")
    }
}

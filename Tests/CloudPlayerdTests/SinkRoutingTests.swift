import Foundation
import Testing
import TestSupport

/// Where the sound goes when sinks come and go (issue 14): with no sink named, the default one,
/// followed when it changes (headphones plugged in); a named sink that goes away is left for the
/// default, said once, and taken back when it returns. On PulseAudio and on PipeWire.
// One case at a time: each starts sound servers of its own, and side by side on two cores
// they starved each other into dropouts no listener would meet.
@Suite(.serialized) struct SinkRoutingTests {
    /// Waits until `condition` holds, a bounded number of times.
    private func waitFor(_ condition: () async throws -> Bool) async throws {
        for _ in 0..<600 where !(try await condition()) { try await Task.sleep(for: .milliseconds(50)) }
    }

    /// `cloudplayerd play` of `file` to `output` (`pulse` or `pulse:NAME`) through the server at
    /// `address`, saying where its stream goes.
    private func play(_ file: URL, to output: String, on address: String) throws -> ChildProcess {
        try ChildProcess(BuiltProducts.cloudplayerd, ["play", "--no-mpris", "--output", output, "--log-level", "info", file.path],
                         environment: ["PULSE_SERVER": address])
    }

    /// The reference frames one sink's recording holds: from where its audio starts in the track
    /// to where it ends (nil: none of the track). The start is located from a stretch a little way
    /// in (the first moments on a sink may be a server's ramp or dropout), the end from a stretch
    /// near the end: a dropout on a loaded machine puts silence between them, so the length of
    /// the recording is not the length of track it holds.
    private func span(of recording: PCMAudio, in reference: PCMAudio) -> Range<Int>? {
        let audible = recording.audibleSpan()
        guard audible.count > 8192 else { return nil }
        let heard = recording.frames(from: audible.lowerBound, to: audible.upperBound)
        let into = min(reference.sampleRate / 4, heard.frameCount / 2)
        guard let found = reference.firstFrame(matching: heard.frames(from: into), probeFrames: 1024) else { return nil }
        let tail = max(into, heard.frameCount - 4096)
        guard let end = reference.firstFrame(matching: heard.frames(from: tail), probeFrames: 1024) else {
            return (found - into)..<(found - into + heard.frameCount)
        }
        return (found - into)..<(end + heard.frameCount - tail)
    }

    @Test("With no sink named, a new default sink takes the stream over where it was, and it plays on there",
          arguments: PulseTestServer.Kind.allCases)
    func followsTheDefault(kind: PulseTestServer.Kind) async throws {
        let server = PulseTestServer(kind)
        defer { Task { await server.stop() } }
        let first = try await server.makeSink(named: "speakers")
        let second = try await server.makeSink(named: "headphones")
        let address = try await server.serverAddress()
        try await ChildProcess.check("pactl", ["-s", address, "set-default-sink", "speakers"])
        // 60 s, stopped once the new default has played 2 s of it: a short track could end before
        // the move on a busy machine (a 6 s one did).
        let file = try await Fixtures.shared.url(.longMP3)
        let player = try play(file, to: "pulse", on: address)
        defer { player.signal(SIGTERM) }
        try await first.waitForAudio(seconds: 2)
        try await ChildProcess.check("pactl", ["-s", address, "set-default-sink", "headphones"])
        try await second.waitForAudio(seconds: 2)
        player.signal(SIGTERM)
        _ = await player.wait()
        let after = try await second.finish()
        let onSpeakers = try await first.finish()

        // The headphones carry on from where the speakers left off — the end of all they played
        // (the server rewinds what it had queued for the speakers) — bit for bit: no repeat, no
        // skip beyond a quarter of a second a move may cost.
        let reference = try await ReferenceDecoder.mpg123(file)
        let before = try #require(span(of: onSpeakers, in: reference), "the speakers played none of the track")
        let onHeadphones = try #require(span(of: after, in: reference), "the stream did not move to the new default")
        #expect(onHeadphones.count >= reference.sampleRate, "the headphones played only \(onHeadphones)")
        #expect(onHeadphones.lowerBound >= before.upperBound - reference.sampleRate / 10
                    && onHeadphones.lowerBound <= before.upperBound + reference.sampleRate / 4,
                "the speakers played \(before), the headphones from \(onHeadphones.lowerBound)")
        let heard = try after.gaps(against: reference.frames(from: onHeadphones.lowerBound, to: onHeadphones.upperBound))
        #expect(heard.longestLoss <= kind.dropoutBound)
    }

    @Test("A named sink that goes away: the stream plays on the default and says so; when the sink is back, it plays there again",
          arguments: PulseTestServer.Kind.allCases)
    func namedSinkGoesAndReturns(kind: PulseTestServer.Kind) async throws {
        let server = PulseTestServer(kind)
        defer { Task { await server.stop() } }
        let fallback = try await server.makeSink(named: "speakers")
        let named = try await server.makeSink(named: "usb-dac")
        let address = try await server.serverAddress()
        try await ChildProcess.check("pactl", ["-s", address, "set-default-sink", "speakers"])
        let file = try await Fixtures.shared.url(.longMP3)  // 60 s; stopped once it is back
        let player = try play(file, to: "pulse:usb-dac", on: address)
        defer { player.signal(SIGTERM) }
        try await named.waitForAudio(seconds: 1.5)
        let beforeLeaving = try await named.unplug()
        try await waitFor { player.errorSoFar().contains("sink usb-dac is gone") }
        #expect(player.errorSoFar().contains("sink usb-dac is gone; playing on speakers"), "stderr: \(player.errorSoFar())")
        try await fallback.waitForAudio(seconds: 1.5)
        let returned = try await server.makeSink(named: "usb-dac")  // plugged in again
        try await waitFor { player.errorSoFar().contains("sink usb-dac is back") }
        #expect(player.errorSoFar().contains("sink usb-dac is back"), "stderr: \(player.errorSoFar())")
        try await returned.waitForAudio(seconds: 1.5)
        player.signal(SIGTERM)
        _ = await player.wait()
        let (meanwhile, afterReturn) = (try await fallback.finish(), try await returned.finish())

        let reference = try await ReferenceDecoder.mpg123(file)
        let first = try #require(span(of: beforeLeaving, in: reference), "the named sink played none of the track")
        let second = try #require(span(of: meanwhile, in: reference), "the default sink played none of the track while the named one was away")
        let third = try #require(span(of: afterReturn, in: reference), "the stream did not go back to the returned sink")
        #expect(first.lowerBound == 0 && first.upperBound <= second.lowerBound + 4410 && second.upperBound <= third.lowerBound + 4410,
                "\(first), then \(second), then \(third)")
    }

    /// PipeWire's session manager moves a stream to a new default once the sink it plays on was
    /// the default (`checkFollowDefault` in WirePlumber 0.4's policy-node.lua, after PulseAudio's
    /// rule for a stream moved to the default); the player said the sink was gone and stayed on
    /// the new default until some sink appeared.
    @Test("A named sink keeps the stream when the default changes, also when it was the default itself",
          arguments: PulseTestServer.Kind.allCases)
    func namedSinkKeepsTheStream(kind: PulseTestServer.Kind) async throws {
        let server = PulseTestServer(kind)
        defer { Task { await server.stop() } }
        let named = try await server.makeSink(named: "usb-dac")
        let other = try await server.makeSink(named: "speakers")
        let address = try await server.serverAddress()
        try await ChildProcess.check("pactl", ["-s", address, "set-default-sink", "usb-dac"])
        let file = try await Fixtures.shared.url(.longMP3)  // 60 s; stopped once the named sink played on
        let player = try play(file, to: "pulse:usb-dac", on: address)
        defer { player.signal(SIGTERM) }
        try await named.waitForAudio(seconds: 1)
        try await ChildProcess.check("pactl", ["-s", address, "set-default-sink", "speakers"])
        // Three seconds more on the named sink after the change: a stream that left it never
        // brings them. (Not there: where the stream went, and what the player said, in the failure.)
        do {
            try await named.waitForAudio(seconds: named.audibleSeconds() + 3)
        } catch {
            let inputs = try? await ChildProcess.check("pactl", ["-s", address, "list", "short", "sink-inputs"]).stdout
            let sinks = try? await ChildProcess.check("pactl", ["-s", address, "list", "short", "sinks"]).stdout
            throw TestSupportError("\(error); sink inputs: \(inputs ?? "?"); sinks: \(sinks ?? "?"); player: \(player.errorSoFar().suffix(1500))")
        }
        let inputs = try await ChildProcess.check("pactl", ["-s", address, "-f", "json", "list", "sink-inputs"]).stdout
        let sinks = try await ChildProcess.check("pactl", ["-s", address, "-f", "json", "list", "short", "sinks"]).stdout
        player.signal(SIGTERM)
        _ = await player.wait()
        _ = try await other.unplug()
        _ = try await named.unplug()
        #expect(!player.errorSoFar().contains("is gone"), "stderr: \(player.errorSoFar())")
        let objects = { (text: String) in (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [[String: Any]] ?? [] }
        let index = try #require(objects(sinks).first { $0["name"] as? String == "usb-dac" }?["index"] as? Int, "\(sinks)")
        let ours = objects(inputs).filter { ($0["properties"] as? [String: Any])?["application.name"] as? String == "cloudplayerd" }
        #expect(ours.map { $0["sink"] as? Int } == [index], "usb-dac is sink \(index); sink inputs: \(inputs)")
    }

    @Test("A named sink not there at the start: the default plays, it says so, and the stream goes to the sink once it appears",
          arguments: PulseTestServer.Kind.allCases)
    func namedSinkAppearsLater(kind: PulseTestServer.Kind) async throws {
        let server = PulseTestServer(kind)
        defer { Task { await server.stop() } }
        let fallback = try await server.makeSink(named: "speakers")
        let address = try await server.serverAddress()
        let file = try await Fixtures.shared.url(.longMP3)  // 60 s; stopped once it moved
        let player = try play(file, to: "pulse:usb-dac", on: address)
        defer { player.signal(SIGTERM) }
        try await waitFor { player.outputSoFar().contains("Playing") }
        #expect(player.errorSoFar().contains("sink usb-dac is not there; playing on the default sink"), "stderr: \(player.errorSoFar())")
        try await fallback.waitForAudio(seconds: 1)
        let named = try await server.makeSink(named: "usb-dac")
        try await waitFor { player.errorSoFar().contains("sink usb-dac is back") }
        #expect(player.errorSoFar().contains("sink usb-dac is back"), "stderr: \(player.errorSoFar())")
        try await named.waitForAudio(seconds: 1.5)
        player.signal(SIGTERM)
        _ = await player.wait()
        let (before, after) = (try await fallback.finish(), try await named.finish())
        let reference = try await ReferenceDecoder.mpg123(file)
        let first = try #require(span(of: before, in: reference), "the default sink played none of the track")
        let second = try #require(span(of: after, in: reference), "the stream did not go to the sink that appeared")
        #expect(first.lowerBound == 0 && second.lowerBound > 0, "\(first), then \(second)")
    }
}

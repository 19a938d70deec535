import Foundation
import Playback
import Testing

/// When a play becomes a listen: half the track or four minutes heard, once per play; jumps are
/// not heard (Last.fm's and ListenBrainz's rule).
@Suite struct ListenCounterTests {
    @Test("half of a short track heard is a listen, told once")
    func halfHeard() {
        var counter = ListenCounter()
        let started = counter.started(1, at: 0, newPlay: true)
        #expect(started != nil)
        #expect(counter.heard(1, upTo: 89, duration: 180) == nil)
        #expect(counter.heard(1, upTo: 90, duration: 180) == started)
        #expect(counter.heard(1, upTo: 180, duration: 180) == nil, "once per play")
    }

    @Test("a seek forward is not heard: the way there does not count")
    func seekIsNotHeard() {
        var counter = ListenCounter()
        _ = counter.started(1, at: 0, newPlay: true)
        #expect(counter.heard(1, upTo: 10, duration: 180) == nil)
        #expect(counter.started(1, at: 150, newPlay: false) == nil)
        #expect(counter.heard(1, upTo: 170, duration: 180) == nil, "30 s heard of the 90 needed")
        #expect(counter.heard(1, upTo: 180, duration: 180) == nil)
    }

    @Test("four minutes of a long track are a listen")
    func longTrack() {
        var counter = ListenCounter()
        let started = counter.started(7, at: 600, newPlay: true)
        #expect(counter.heard(7, upTo: 839, duration: 3600) == nil)
        #expect(counter.heard(7, upTo: 840, duration: 3600) == started)
    }

    @Test("a track started again from its start is a new play, counted again")
    func newPlay() {
        var counter = ListenCounter()
        _ = counter.started(1, at: 0, newPlay: true)
        #expect(counter.heard(1, upTo: 100, duration: 180) != nil)
        let again = counter.started(1, at: 0, newPlay: true, now: Date(timeIntervalSinceNow: 200))
        #expect(counter.heard(1, upTo: 100, duration: 180) == again)
    }

    @Test("what is heard of another entry than the one playing does not count")
    func otherEntry() {
        var counter = ListenCounter()
        _ = counter.started(1, at: 0, newPlay: true)
        #expect(counter.heard(2, upTo: 180, duration: 180) == nil)
        #expect(counter.heard(1, upTo: 90, duration: nil) == nil, "unknown length: four minutes")
    }
}

import Cache
import Loader
import Testing

/// The jump chunk, 64 KiB: the tests count in it so their chunks read as the policy says.
private let j: Int64 = 64 << 10
private typealias Situation = ReadAheadPlanner.Situation

/// A planner that served one reader waiting at each of `waits` in turn, and the bytes it brought.
private func served(waits: [Int64], length: Int64) -> (ReadAheadPlanner, ByteRanges) {
    var planner = ReadAheadPlanner()
    var readable = ByteRanges()
    for waitsAt in waits {
        for chunk in planner.plan(Situation(length: length, readable: readable, demands: [waitsAt], readers: 1)) {
            readable.insert(chunk)
        }
    }
    return (planner, readable)
}

/// ReadAheadPlanner alone: what it asks for next, given what is here, what is coming and where
/// the readers are. Every chunk it plans is taken as downloaded before the next question, unless
/// a test says it is still in flight.
@Suite struct ReadAheadPlannerTests {
    @Test("a reader that reads on where read-ahead left off gets chunks that double up to 2 MiB")
    func sequentialGrowth() {
        var planner = ReadAheadPlanner()
        var readable = ByteRanges()
        var planned: [[Range<Int64>]] = []
        for _ in 0..<8 {
            let waitsAt = readable.presentRun(from: 0)
            let chunks = planner.plan(Situation(length: 256 * j, readable: readable, demands: [waitsAt],
                                                positions: [waitsAt], readers: 1))
            planned.append(chunks)
            for chunk in chunks { readable.insert(chunk) }
        }
        #expect(planned == [[0..<j], [j..<3 * j], [3 * j..<7 * j], [7 * j..<15 * j], [15 * j..<31 * j],
                            [31 * j..<63 * j], [63 * j..<95 * j], [95 * j..<127 * j]])
        #expect(planner.readAheadFrom == 127 * j && planner.sequentialChunk == 2 << 20)

        // Read-ahead with nobody waiting goes on from the reader's first hole, at the cap.
        #expect(planner.plan(Situation(length: 256 * j, readable: readable, positions: [100 * j], runs: [0..<100 * j], readers: 1))
            == [127 * j..<159 * j])
    }

    @Test("a demand away from read-ahead gets one jump chunk at once, even while read-ahead is in flight")
    func jump() {
        var (planner, readable) = served(waits: [0, j, 3 * j], length: 256 * j)
        #expect(planner.readAheadFrom == 7 * j && planner.sequentialChunk == 8 * j)

        // Read-ahead 7j..<15j is still coming when the listener seeks to 100j.
        let inFlight = ByteRanges([7 * j..<15 * j])
        #expect(planner.plan(Situation(length: 256 * j, readable: readable, inFlight: inFlight, fetches: 1,
                                       demands: [100 * j], readers: 1)) == [100 * j..<101 * j])
        readable.insert(100 * j..<101 * j)
        #expect(planner.readAheadFrom == 101 * j && planner.sequentialChunk == 2 * j)

        // Nothing more while a download is in flight; then read-ahead goes on after the jump, small again.
        let played = 99 * j..<101 * j
        #expect(planner.plan(Situation(length: 256 * j, readable: readable, inFlight: inFlight, fetches: 1,
                                       positions: [played.upperBound], runs: [played], readers: 1)) == [])
        readable.insert(7 * j..<15 * j)
        #expect(planner.plan(Situation(length: 256 * j, readable: readable, positions: [played.upperBound], runs: [played], readers: 1))
            == [101 * j..<103 * j])

        // A jump into a short hole gets the hole only.
        readable.insert(120 * j + 100..<130 * j)
        #expect(planner.plan(Situation(length: 256 * j, readable: readable, inFlight: ByteRanges([101 * j..<103 * j]),
                                       fetches: 1, demands: [120 * j], readers: 1)) == [120 * j..<120 * j + 100])
    }

    @Test("two readers waiting in two places both get a chunk, in file order; one place asked twice gets one")
    func secondReader() {
        var planner = ReadAheadPlanner()
        #expect(planner.plan(Situation(length: 256 * j, demands: [50 * j, 0, 50 * j], readers: 3))
            == [0..<j, 50 * j..<51 * j])
        // The second chunk was a jump: read-ahead goes on after it, not after the first.
        #expect(planner.readAheadFrom == 51 * j && planner.sequentialChunk == 2 * j)

        // One reader reads on where read-ahead left off and its chunk grows; the other jumped
        // again and gets a small one.
        let readable = ByteRanges([0..<j, 50 * j..<51 * j])
        #expect(planner.plan(Situation(length: 256 * j, readable: readable, demands: [80 * j, 51 * j], readers: 2))
            == [51 * j..<53 * j, 80 * j..<81 * j])
        #expect(planner.readAheadFrom == 81 * j && planner.sequentialChunk == 2 * j)
    }

    @Test("a server that sends whole files only: one stream 0..<length, when nothing is in flight and someone needs bytes")
    func wholeFileOnly() {
        let length = 40 * j
        let head = ByteRanges([0..<2 * j])
        var planner = ReadAheadPlanner()
        // A reader waiting in the middle: still the whole file, from the start.
        #expect(planner.plan(Situation(length: length, readable: head, acceptsRanges: false, demands: [20 * j], readers: 1))
            == [0..<length])
        // Not while anything is in flight, even a ranged chunk from before the server was known.
        #expect(planner.plan(Situation(length: length, readable: head, inFlight: ByteRanges([5 * j..<6 * j]),
                                       acceptsRanges: false, fetches: 1, demands: [20 * j], readers: 1)) == [])
        // Nobody reads and nothing wanted is missing: no stream.
        #expect(planner.plan(Situation(length: length, readable: head, acceptsRanges: false)) == [])
        #expect(planner.plan(Situation(length: length, readable: head, acceptsRanges: false, wanted: ByteRanges([0..<j]))) == [])
        // A prefetch of a missing tail, with no reader: the whole file.
        #expect(planner.plan(Situation(length: length, readable: head, acceptsRanges: false,
                                       wanted: ByteRanges([0..<4 * j, 39 * j..<length]))) == [0..<length])
    }

    @Test("disk refused: read-ahead fills only the window ahead of the slowest reader, never around to the start")
    func memoryOnly() {
        let length = 20 * j
        let readable = ByteRanges([8 * j..<11 * j])
        // With the disk, read-ahead fills from the slowest playing reader on, never behind it.
        var withDisk = ReadAheadPlanner()
        #expect(withDisk.plan(Situation(length: length, readable: readable, positions: [12 * j, 10 * j],
                                        runs: [10 * j..<12 * j, 8 * j..<10 * j], readers: 2)) == [11 * j..<12 * j])

        // Memory only, budget 8j: the window is 4j from the slowest reader, 10j..<14j.
        var planner = ReadAheadPlanner()
        #expect(planner.plan(Situation(length: length, readable: readable, positions: [12 * j, 10 * j], readers: 2,
                                       memoryOnly: true, memoryBudget: 8 * j)) == [11 * j..<12 * j])
        // The window full: nothing, though 0..<8j and 14j..<20j are missing.
        let windowFull = ByteRanges([8 * j..<14 * j])
        #expect(planner.plan(Situation(length: length, readable: windowFull, positions: [12 * j, 10 * j], readers: 2,
                                       memoryOnly: true, memoryBudget: 8 * j)) == [])
        // The slowest reader moves on to 13j: the window moves with it (chunks still grow).
        #expect(planner.plan(Situation(length: length, readable: windowFull, positions: [13 * j, 13 * j], readers: 2,
                                       memoryOnly: true, memoryBudget: 8 * j)) == [14 * j..<16 * j])
        // Near the end the window stops at the file's end, and does not go around.
        let nearEnd = ByteRanges([8 * j..<19 * j])
        #expect(planner.plan(Situation(length: length, readable: nearEnd, positions: [18 * j], readers: 1,
                                       memoryOnly: true, memoryBudget: 8 * j)) == [19 * j..<20 * j])
        #expect(planner.plan(Situation(length: length, readable: ByteRanges([8 * j..<20 * j]), positions: [18 * j],
                                       readers: 1, memoryOnly: true, memoryBudget: 8 * j)) == [])
    }

    @Test("filling whole (pinned, fill = whole): read-ahead goes from the last place read to the end, then around to the start")
    func aroundToTheStart() {
        let length = 10 * j
        var planner = ReadAheadPlanner()
        var readable = ByteRanges()
        var planned: [[Range<Int64>]] = []
        for demands in [[6 * j], [], [], [], []] as [[Int64]] {
            let chunks = planner.plan(Situation(length: length, readable: readable, demands: demands, fillWhole: true, readers: 1))
            planned.append(chunks)
            for chunk in chunks { readable.insert(chunk) }
        }
        #expect(planned == [[6 * j..<7 * j], [7 * j..<9 * j], [9 * j..<10 * j], [0..<6 * j], []])
    }

    @Test("by default read-ahead goes from the playing position to the end and never around to the start")
    func nothingBehind() {
        let length = 10 * j
        var planner = ReadAheadPlanner()
        var readable = ByteRanges([0..<j])  // the head, from the first request
        var planned: [[Range<Int64>]] = []
        // The reader waits at 6j, reads that block and waits for the next, then plays on (a run
        // of two blocks and more from 6j).
        for (demands, runs) in [([6 * j], []), ([7 * j], [6 * j..<7 * j]), ([], [6 * j..<8 * j]), ([], [6 * j..<10 * j]),
                                ([], [6 * j..<10 * j])] as [([Int64], [Range<Int64>])] {
            let chunks = planner.plan(Situation(length: length, readable: readable, demands: demands, runs: runs, readers: 1))
            planned.append(chunks)
            for chunk in chunks { readable.insert(chunk) }
        }
        #expect(planned == [[6 * j..<7 * j], [7 * j..<9 * j], [9 * j..<10 * j], [], []])
        #expect(!readable.contains(j..<6 * j), "nothing behind the playing position")
    }

    @Test("head and tail reads and the probes of a bisecting seek start no read-ahead, and what is behind the playing run stays unfetched")
    func probesDoNotMovePlayingPosition() {
        let length = 100 * j
        var planner = ReadAheadPlanner()
        var readable = ByteRanges([0..<j])
        // A decoder opens: it reads a little of the head, then the tail (a demand, answered alone).
        #expect(planner.plan(Situation(length: length, readable: readable, runs: [0..<2000], readers: 1)) == [])
        #expect(planner.plan(Situation(length: length, readable: readable, demands: [99 * j], runs: [0..<2000], readers: 1))
            == [99 * j..<100 * j])
        readable.insert(99 * j..<100 * j)
        // A tail read that runs to the end: nothing lies ahead of it.
        #expect(planner.plan(Situation(length: length, readable: readable, runs: [99 * j..<100 * j], readers: 1)) == [])
        // Bisection probes: each gets its jump chunk, nothing more, while the runs stay short.
        for probe in [50 * j, 75 * j, 62 * j, 68 * j, 65 * j] {
            #expect(planner.plan(Situation(length: length, readable: readable, demands: [probe], runs: [probe - 4000..<probe],
                                           readers: 1)) == [probe..<probe + j])
            readable.insert(probe..<probe + j)
            // The probe read its whole block (decoders read 64 KiB blocks): still no playing run.
            #expect(planner.plan(Situation(length: length, readable: readable, runs: [probe..<probe + j], readers: 1)) == [])
        }
        // The seek lands at 66j and the decoder plays on: read-ahead from its first hole ahead, to the end.
        var fetched = ByteRanges()
        for step in 0..<20 {
            let chunks = planner.plan(Situation(length: length, readable: readable, demands: step == 0 ? [66 * j] : [],
                                                runs: step == 0 ? [] : [66 * j..<66 * j + ReadAheadPlanner.settledRun], readers: 1))
            for chunk in chunks { readable.insert(chunk); fetched.insert(chunk) }
        }
        #expect(readable.contains(66 * j..<length))
        #expect(fetched.ranges.allSatisfy { $0.lowerBound >= 66 * j }, "\(fetched.ranges)")
        #expect(readable.missing(in: j..<66 * j) == [j..<50 * j, 51 * j..<62 * j, 63 * j..<65 * j])
    }

    @Test("a file longer than read_ahead: a 16 MiB window ahead of the playing position, which moves with it")
    func windowBeyondReadAhead() {
        let mib: Int64 = 1 << 20
        let length = 200 * mib
        var planner = ReadAheadPlanner()
        var readable = ByteRanges([0..<10 * mib])
        // Playing at 10 MiB, read_ahead 64 MiB: up to 26 MiB, then nothing.
        var fetched = ByteRanges()
        for _ in 0..<40 {
            let chunks = planner.plan(Situation(length: length, readable: readable, runs: [5 * mib..<10 * mib], readers: 1))
            for chunk in chunks { readable.insert(chunk); fetched.insert(chunk) }
        }
        #expect(fetched.ranges == [10 * mib..<26 * mib])
        // The reader moves on 1 MiB: the window follows.
        #expect(planner.plan(Situation(length: length, readable: readable, runs: [5 * mib..<11 * mib], readers: 1))
            == [26 * mib..<27 * mib])
        // A file within read_ahead (here 256 MiB) is read ahead to its end.
        var whole = ReadAheadPlanner()
        #expect(whole.plan(Situation(length: length, readable: ByteRanges([0..<190 * mib]), runs: [5 * mib..<11 * mib],
                                     readAheadLimit: 256 * mib, readers: 1)) == [190 * mib..<190 * mib + j])
    }

    @Test("a reader with nothing ahead to fetch leaves room for wanted ranges (a pinned file's rest)")
    func wantedAfterReadAhead() {
        let length = 10 * j
        var planner = ReadAheadPlanner()
        #expect(planner.plan(Situation(length: length, readable: ByteRanges([5 * j..<length]), runs: [5 * j..<length],
                                       readers: 1, wanted: ByteRanges([0..<length]))) == [0..<5 * j])
    }

    @Test("a version change: reset() forgets read-ahead, which starts over small from 0")
    func versionChange() {
        var (planner, _) = served(waits: [0, j, 3 * j], length: 256 * j)
        #expect(planner.readAheadFrom == 7 * j && planner.sequentialChunk == 8 * j)

        planner.reset()
        #expect(planner.readAheadFrom == 0 && planner.sequentialChunk == j)
        // The new version has nothing here yet; its reader is not waiting (it will fail and reopen).
        #expect(planner.plan(Situation(length: 300 * j, readers: 1)) == [])
        #expect(planner.plan(Situation(length: 300 * j, demands: [0], readers: 1)) == [0..<j])
        #expect(planner.plan(Situation(length: 300 * j, readable: ByteRanges([0..<j]), demands: [j], runs: [0..<j], readers: 1))
            == [j..<3 * j])
    }

    @Test("wanted ranges with no reader are fetched whole, one at a time; with a reader, read-ahead comes first")
    func wantedWithoutReader() {
        let length = 64 * j
        var planner = ReadAheadPlanner()
        // A prefetch: head and tail; the head is partly here.
        let wanted = ByteRanges([0..<4 * j, 63 * j..<length])
        let head = ByteRanges([0..<j])
        #expect(planner.plan(Situation(length: length, readable: head, wanted: wanted)) == [j..<4 * j])
        #expect(planner.plan(Situation(length: length, readable: head, inFlight: ByteRanges([j..<4 * j]), fetches: 1,
                                       wanted: wanted)) == [])
        #expect(planner.plan(Situation(length: length, readable: ByteRanges([0..<4 * j]), wanted: wanted))
            == [63 * j..<length])
        // A fetch of the whole file (a scan) is one chunk, larger than read-ahead's largest.
        #expect(planner.plan(Situation(length: length, wanted: ByteRanges([0..<length]))) == [0..<length])
        // Planning for wants leaves read-ahead where it was.
        #expect(planner.readAheadFrom == 0 && planner.sequentialChunk == j)
        // A reader playing on: read-ahead ahead of it, not the wanted tail.
        #expect(planner.plan(Situation(length: length, readable: ByteRanges([0..<4 * j]), runs: [0..<4 * j], readers: 1, wanted: wanted))
            == [4 * j..<5 * j])
    }

    @Test("nothing left to fetch: everything here or coming, or nobody needs it")
    func nothingLeft() {
        let length = 10 * j
        var planner = ReadAheadPlanner()
        let whole = ByteRanges([0..<length])
        #expect(planner.plan(Situation(length: length, readable: whole, demands: [3 * j], readers: 1)) == [])
        #expect(planner.plan(Situation(length: length, readable: ByteRanges([0..<4 * j]), inFlight: ByteRanges([4 * j..<length]),
                                       fetches: 1, demands: [5 * j], readers: 1, wanted: whole)) == [])
        #expect(planner.plan(Situation(length: length, readable: whole, acceptsRanges: false, readers: 1)) == [])
        // The first request brings the head: a short file is all coming.
        #expect(planner.plan(Situation(length: j - 1, firstRequestPending: true, demands: [0], readers: 1)) == [])
        // Holes, but no reader and nothing wanted.
        #expect(planner.plan(Situation(length: length, readable: ByteRanges([0..<j]))) == [])
        // A reader waiting for bytes a download in flight brings: nothing more.
        #expect(planner.plan(Situation(length: length, readable: ByteRanges([0..<j]), inFlight: ByteRanges([j..<3 * j]),
                                       fetches: 1, demands: [2 * j], readers: 1)) == [])
        #expect(planner.readAheadFrom == 0 && planner.sequentialChunk == j)
    }
}

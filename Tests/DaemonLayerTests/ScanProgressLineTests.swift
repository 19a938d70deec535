import CtlCommands
import Manager1
import Testing

/// The line `cloudplayerctl scan` redraws: its bar's end never moves back, its counts agree.
@Suite struct ScanProgressLineTests {
    private func status(done: UInt32, found: UInt32, before: UInt32?, tracks: UInt32, read: UInt32) -> Manager1.ScanStatus {
        var status = Manager1.ScanStatus(running: true, reports: [])
        status.source = "music"
        (status.foldersDone, status.foldersFound, status.foldersBefore) = (done, found, before)
        (status.tracks, status.tagsRead) = (tracks, read)
        return status
    }

    @Test("a source scanned before: the bar's end is the folders listed last time from the first moment (0/41, then 28/41), more only if more are found")
    func barOverTheLastCount() {
        #expect(ScanProgressLine.text(status(done: 0, found: 1, before: 41, tracks: 0, read: 0))
                == "[------------------------] music: 0/41 folders, 0 tracks (0 read)")
        #expect(ScanProgressLine.text(status(done: 28, found: 35, before: 41, tracks: 70, read: 3))
                == "[################--------] music: 28/41 folders, 70 tracks (3 read)")
        #expect(ScanProgressLine.text(status(done: 42, found: 44, before: 41, tracks: 101, read: 1))
                == "[######################--] music: 42/44 folders, 101 tracks (1 read)")
    }

    @Test("a first scan: no bar (its end is not known), the counts, singular for one")
    func firstScan() {
        #expect(ScanProgressLine.text(status(done: 1, found: 5, before: nil, tracks: 1, read: 1)) == "music: 1 folder listed, 1 track (1 read)")
        #expect(ScanProgressLine.text(status(done: 0, found: 1, before: 0, tracks: 0, read: 0)) == "music: 0 folders listed, 0 tracks (0 read)")
    }
}

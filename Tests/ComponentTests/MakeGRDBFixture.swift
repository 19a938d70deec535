import Foundation
@testable import Library
import Model
import Testing

/// Made the fixture `Tests/LibraryFixtures/library-grdb.sqlite` with the GRDB-based store, before
/// the port to the SQLite layer: every table, every column kind (text, integer, real, date, bool,
/// NULL), every playlist kind, a gone track, the search index. Run once by hand
/// (`FIXTURE_OUT=… swift test --filter MakeGRDBFixture`); kept in history, removed by the port.
@Suite struct MakeGRDBFixture {
    @Test func make() throws {
        guard let out = ProcessInfo.processInfo.environment["FIXTURE_OUT"] else { return }
        try? FileManager.default.removeItem(atPath: out)
        let store = try LibraryStore(file: URL(fileURLWithPath: out))
        let root = "file:///music"
        var one = LibraryTrack(url: "\(root)/Artist%201/Album/01%20One.mp3", source: "music", folder: "\(root)/Artist%201/Album/")
        one.size = 4_000_123
        one.validator = "\"etag-1\""
        one.tags = TrackTags(title: "One", artist: "Artist 1", album: "Album", albumArtist: "Various", trackNumber: 1, genre: "Rock",
                             year: 1999, discNumber: 2,
                             replayGain: ReplayGain(trackGain: -6.5, trackPeak: 0.98, albumGain: -7.25, albumPeak: 0.999))
        one.duration = 245.123456
        one.codec = "MP3"
        one.artPath = "/home/u/.cache/cloudplayerd/art/abc.jpg"
        var two = LibraryTrack(url: "https://feed.example/ep2.mp3", source: "music", folder: "https://feed.example/feed.xml")
        two.tags = TrackTags(title: "Café Ünïcode — épisode", artist: "Podcaster", album: "The Feed")
        two.published = Date(timeIntervalSince1970: 1_709_618_828.25)
        two.codec = "Opus"
        var three = LibraryTrack(url: "\(root)/Artist%201/Album/03%20Three.flac", source: "music", folder: "\(root)/Artist%201/Album/")
        three.problem = "cannot read the tags: not an audio file"
        let mark = try store.beginScan(of: "music")
        try store.save([one, two, three], unchanged: [], mark: mark)
        try store.savePlaylist(LibraryPlaylist(name: "Album", kind: .folder, source: "music", url: "\(root)/Artist%201/Album/"), items: nil, mark: mark)
        var file = LibraryPlaylist(name: "Mix", kind: .file, source: "music", url: "\(root)/mix.m3u")
        file.validator = "W/\"mix\""
        try store.savePlaylist(file, items: [LibraryPlaylistItem(playlist: 0, position: 0, url: one.url, title: "One (mix)"),
                                             LibraryPlaylistItem(playlist: 0, position: 1, url: "http://elsewhere.example/x.mp3")], mark: mark)
        try store.savePlaylist(LibraryPlaylist(name: "The Feed", kind: .feed, source: "music", url: "https://feed.example/feed.xml"),
                               items: [LibraryPlaylistItem(playlist: 0, position: 0, url: two.url, title: two.title)], mark: mark)
        _ = try store.finishScan(of: "music", mark: mark, folders: 2, complete: true, problems: [])
        let ids = try store.tracks(urls: [one.url, two.url, three.url]).mapValues { $0.id! }
        let second = try store.beginScan(of: "music")
        try store.save([], unchanged: [ids[one.url]!, ids[two.url]!], mark: second)
        try store.sight(playlist: try store.playlist("Album").id!, mark: second)
        try store.sight(playlist: try store.playlist("Mix").id!, mark: second)
        try store.sight(playlist: try store.playlist("The Feed").id!, mark: second)
        #expect(try store.finishScan(of: "music", mark: second, folders: 2, complete: true, problems: ["music: one problem", "and another"]) == 1)
        let road = try store.createPlaylist(named: "Road / Trip")
        try store.add([two.url, one.url, "file:///elsewhere/z.ogg"], to: road)
        try store.setPinned(true, road)
        try store.recordProgress(url: one.url, resumeAt: 42.5, played: false)
        #expect(try store.setPlayed(true, ids: [ids[two.url]!]) == 1)
        store.close()
    }
}

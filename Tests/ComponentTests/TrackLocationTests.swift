import Foundation
import Loader
import Model
import SourceTypes
import Testing

/// A track's location: one spelling for every way a server or a user writes a URL, and keys of
/// sources without URLs kept exactly as the provider gave them.
@Suite struct TrackLocationTests {
    @Test("one spelling: encodings, case, dot segments, credentials and fragments do not make another location",
          arguments: [
            ("https://Cloud.Example.org/dav/Music/x%20(1)%20%C3%A9.mp3", "https://cloud.example.org/dav/Music/x%20%281%29%20%C3%A9.mp3"),
            ("HTTPS://anna:secret@cloud.example.org/dav/Music/./a/../x%20(1)%20%C3%A9.mp3#t=3", "https://cloud.example.org/dav/Music/x%20%281%29%20%c3%a9.mp3"),
            ("https://cloud.example.org/dav/Music/%2e%2e/Music/x%20(1)%20%C3%A9.mp3", "https://cloud.example.org/dav/Music/x%20(1)%20%C3%A9.mp3"),
          ])
    func oneSpelling(_ one: String, _ other: String) throws {
        let a = TrackLocation(url: try #require(URL(string: one)))
        let b = TrackLocation(url: try #require(URL(string: other)))
        #expect(a == b)
        #expect(a.uri == b.uri)
        #expect(!a.uri.contains("secret") && !a.uri.contains("#"))
    }

    @Test("a query stays in the location (a download link may need it) but is never shown")
    func query() throws {
        let location = TrackLocation(url: try #require(URL(string: "https://cdn.example.com/ep.mp3?token=abc")))
        #expect(location.uri.hasSuffix("?token=abc"))
        #expect(location.publicURI == "https://cdn.example.com/ep.mp3")
        #expect(location.displayName == "ep.mp3")
        #expect(location.source == nil && location.key == location.uri)
    }

    @Test("a key of a source without URLs is kept as it is: never dot-, case- or percent-normalised",
          arguments: ["a/../b.mp3", "b.mp3", "Music/Ä b+c %20.mp3", "a//b.mp3", "./x.mp3", "a/%2e%2e/b.mp3", "日本/曲.opus"])
    func opaqueKeys(_ key: String) throws {
        let location = TrackLocation(source: "b2", key: key)
        #expect(location.uri.hasPrefix("cloudplayer://b2/"))
        #expect(!location.uri.contains("/../") && !location.uri.contains("/./") && !location.uri.contains(" "))
        let (source, parsed) = try #require(TrackLocation.sourceAndKey(in: location.uri))
        #expect(source == "b2" && parsed == key)
        #expect(SourceSet().location(of: location.uri) == location)
        #expect(location.url == nil)
    }

    @Test("different keys are different locations, however a URL parser would resolve them")
    func opaqueKeysDiffer() {
        #expect(TrackLocation(source: "b2", key: "a/../b.mp3") != TrackLocation(source: "b2", key: "b.mp3"))
        #expect(TrackLocation(source: "b2", key: "A.mp3") != TrackLocation(source: "b2", key: "a.mp3"))
        #expect(TrackLocation(source: "b2", key: "a.mp3") != TrackLocation(source: "s3", key: "a.mp3"))
    }

    @Test("a URL below a source's root is that source's, keyed by its path below the root; others are no source's")
    func placedBySource() throws {
        let dav = WebDAVSource(name: "dav", server: HTTPServer(url: try #require(URL(string: "https://cloud.example.org/dav/Music"))))
        let local = LocalSource(name: "home", folder: URL(fileURLWithPath: "/home/anna/Music"))
        let sources = SourceSet([dav, local])
        let track = sources.location(of: "https://cloud.example.org/dav/Music/Artist/x%20(1).mp3")
        #expect(track.source == "dav" && track.key == "Artist/x (1).mp3")
        #expect(track.uri == TrackLocation(url: URL(string: "https://cloud.example.org/dav/Music/Artist/x%20%281%29.mp3")!).uri)
        let file = sources.location(of: "Artist/y.opus", relativeTo: URL(fileURLWithPath: "/home/anna/Music", isDirectory: true))
        #expect(file.source == "home" && file.key == "Artist/y.opus" && file.uri == "file:///home/anna/Music/Artist/y.opus")
        #expect(sources.location(of: "https://cloud.example.org/dav/Other/z.mp3").source == nil)
        // Judged as fetched: a path that wanders but ends below the root is the same track, the
        // same source (one location never has two answers).
        let wandering = sources.location(of: "https://cloud.example.org/dav/Music/./Artist/../Artist/x%20(1).mp3")
        #expect(wandering == track && wandering.source == "dav")
        // A source rooted at a URL also takes its cloudplayer:// form, as the same location.
        #expect(sources.location(of: "cloudplayer://dav/Artist/x%20%281%29.mp3") == track)
        #expect(sources.location(of: "https://cloud.example.org/dav/Music/%2e%2e/Other/z.mp3").source == nil)
    }
}

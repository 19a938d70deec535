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
            ("https://Cloud.Example.org/dav/Music/x%20(1)%20%C3%A9.mp3", "https://cloud.example.org/dav/Music/x%20(1)%20%C3%A9.mp3"),
            ("HTTPS://anna:secret@cloud.example.org/dav/Music/./a/../x%20(1)%20%C3%A9.mp3#t=3", "https://cloud.example.org/dav/Music/x%20(1)%20%c3%a9.mp3"),
            ("https://cloud.example.org/dav/Music/%2e%2e/Music/x%20(1)%20%C3%A9.mp3", "https://cloud.example.org/dav/Music/x%20(1)%20%C3%A9.mp3"),
            ("https://cloud.example.org:443/dav/Music/%78%20(1)%20%C3%A9.mp3", "https://cloud.example.org/dav/Music/x%20(1)%20%C3%A9.mp3"),
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
        // Its server decodes a name: `(` and `%28` are one file there, so one track (§6.2.3).
        #expect(sources.location(of: URL(string: "https://cloud.example.org/dav/Music/Artist/x%20%281%29.mp3")!) == track)
        #expect(track.uri == "https://cloud.example.org/dav/Music/Artist/x%20(1).mp3")
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

    @Test("below a root whose paths are only paths (HTTP), the key is the encoded path, and its cloudplayer:// text finds it")
    func placedByHTTPSource() throws {
        let cdn = HTTPSource(name: "cdn", server: HTTPServer(url: try #require(URL(string: "https://cdn.example.com/pod/"))))
        let sources = SourceSet([cdn])
        let track = sources.location(of: try #require(URL(string: "https://CDN.example.com:443/pod/a%20(b)%2fc.mp3")))
        #expect(track.source == "cdn" && track.key == "a%20(b)%2Fc.mp3" && track.uri == "https://cdn.example.com/pod/a%20(b)%2Fc.mp3")
        #expect(sources.location(of: "cloudplayer://cdn/a%2520(b)%252Fc.mp3") == track)
        // A key typed decoded is spelled as a URL path, never taken for the root.
        #expect(sources.location(of: "cloudplayer://cdn/a%20b.mp3").uri == "https://cdn.example.com/pod/a%20b.mp3")
        #expect(sources.location(of: try #require(URL(string: "https://cdn.example.com/pod/a%28b%29%2Fc.mp3"))) != track)
    }

    // MARK: RFC 3986 §6.2.2, on the encoded path

    /// The canonical text of a URL no source covers.
    private func canonical(_ text: String) throws -> String {
        TrackLocation(url: try #require(URL(string: text))).uri
    }

    @Test("scheme and host in lower case; the path's case is kept",
          arguments: [("HTTP://Cloud.Example.ORG/Music/A.mp3", "http://cloud.example.org/Music/A.mp3"),
                      ("hTTpS://EXAMPLE.com/x", "https://example.com/x")])
    func lowerCaseSchemeAndHost(_ text: String, _ expected: String) throws {
        #expect(try canonical(text) == expected)
    }

    @Test("the scheme's default port is dropped, any other kept",
          arguments: [("http://h.example:80/a", "http://h.example/a"), ("https://h.example:443/a", "https://h.example/a"),
                      ("http://h.example:443/a", "http://h.example:443/a"), ("https://h.example:80/a", "https://h.example:80/a"),
                      ("https://h.example:8443/a", "https://h.example:8443/a")])
    func defaultPorts(_ text: String, _ expected: String) throws {
        #expect(try canonical(text) == expected)
    }

    @Test("percent escapes in upper-case hex, in the path and the query",
          arguments: [("http://h/x%c3%a9%2f.mp3?q=%c3%a9", "http://h/x%C3%A9%2F.mp3?q=%C3%A9"), ("http://h/%3b%2b", "http://h/%3B%2B")])
    func upperCaseHex(_ text: String, _ expected: String) throws {
        #expect(try canonical(text) == expected)
    }

    @Test("escapes of unreserved characters are decoded, and only those",
          arguments: [("http://h/%41%7a%30%2D%2e%5F%7E.mp3", "http://h/Az0-._~.mp3"),
                      ("http://h/a%2Fb%3Bc%2Bd%28e%29%40%3D%26%24.mp3", "http://h/a%2Fb%3Bc%2Bd%28e%29%40%3D%26%24.mp3"),
                      ("http://h/a%20b%25c", "http://h/a%20b%25c")])
    func decodeOnlyUnreserved(_ text: String, _ expected: String) throws {
        #expect(try canonical(text) == expected)
    }

    @Test("reserved characters escaped are data, not delimiters: a%2Fb is not a/b, %3B not ;, %2B not +, %28 not (")
    func reservedEscapesAreData() throws {
        let pairs = [("http://h/dir/a%2Fb.mp3", "http://h/dir/a/b.mp3"), ("http://h/a%3Bb.mp3", "http://h/a;b.mp3"),
                     ("http://h/a%2Bb.mp3", "http://h/a+b.mp3"), ("http://h/a%28b%29.mp3", "http://h/a(b).mp3")]
        for (escaped, raw) in pairs {
            #expect(try canonical(escaped) == escaped)
            #expect(try canonical(raw) == raw)
            #expect(TrackLocation(url: try #require(URL(string: escaped))) != TrackLocation(url: try #require(URL(string: raw))))
        }
        // In a source whose paths are file names, too: AC%2FDC.mp3 is one file, AC/DC.mp3 a file in a folder.
        let sources = SourceSet([WebDAVSource(name: "dav", server: HTTPServer(url: try #require(URL(string: "https://cloud.example.org/dav"))))])
        let one = sources.location(of: try #require(URL(string: "https://cloud.example.org/dav/AC%2FDC.mp3")))
        let two = sources.location(of: try #require(URL(string: "https://cloud.example.org/dav/AC/DC.mp3")))
        #expect(one.source == "dav" && two.source == "dav" && one != two)
        #expect(one.key == "AC%2FDC.mp3" && two.key == "AC/DC.mp3")
        #expect(one.uri == "https://cloud.example.org/dav/AC%2FDC.mp3")
        // Its cloudplayer:// text names the same file again.
        #expect(sources.location(of: "cloudplayer://dav/AC%252FDC.mp3") == one)
        #expect(sources.location(of: "cloudplayer://dav/AC/DC.mp3") == two)
        #expect(sources.location(of: one.uri) == one)
    }

    @Test("dot segments are removed, escaped ones too; an empty path is /",
          arguments: [("http://h/a/./b/../c.mp3", "http://h/a/c.mp3"), ("http://h/a/%2E%2e/c.mp3", "http://h/c.mp3"),
                      ("http://h/a/%2e/c.mp3", "http://h/a/c.mp3"), ("http://h/a/b/..", "http://h/a/"), ("http://h/a/b/.", "http://h/a/b/"),
                      ("http://h/../../x.mp3", "http://h/x.mp3"), ("http://h", "http://h/"), ("http://h?x=1", "http://h/?x=1"),
                      ("http://h/a/..%2Fb", "http://h/a/..%2Fb")])
    func dotSegments(_ text: String, _ expected: String) throws {
        #expect(try canonical(text) == expected)
    }
}

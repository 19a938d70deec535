import Daemon
import Foundation
import Library
import Loader
import Model
import MPD
import Testing

/// MPD's song paths: a track's path from its folder's and its name (the fast way `listallinfo`
/// takes) is the path its URL placed among the sources gives, in every kind of source.
struct SongPathsTests {
    static let names = ["a b.mp3", "Künstler – Ärger ü.flac", "plus+sign.mp3", "tilde~x.opus", ".hidden", "100%.mp3", "%2F.mp3",
                        "weird!'()*&$@=;:,[]%.mp3", "a%2Fb.mp3", "space at end .mp3", "semi;colon.mp3", "ques?tion#hash.mp3", "日本語.ogg"]

    /// A local, a WebDAV, an HTTP and an S3 source.
    static func sources() throws -> SourceSet {
        try Configuration.parse("""
            [[source]]
            name = "here"
            type = "local"
            path = "/srv/music"
            [[source]]
            name = "dav"
            type = "webdav"
            url = "https://dav.example/remote.php/dav/files/anna/Music/"
            [[source]]
            name = "web"
            type = "http"
            url = "https://media.example.com/music/"
            [[source]]
            name = "s3"
            type = "s3"
            endpoint = "http://127.0.0.1:9000"
            bucket = "music"
            region = "us-east-1"
            access_key_id = "AKIDEXAMPLE"
            secret_access_key = "secret"
            path_style = true
            """, relativeTo: FileManager.default.temporaryDirectory).sources
    }

    @Test("a track's path from its folder is the one its URL gives: local, WebDAV, HTTP and S3 sources, tricky names")
    func fromFolderAsFromURL() throws {
        let sources = try Self.sources()
        let paths = SongPaths(sources: sources)
        var checked = 0
        for name in Self.names {
            for folderName in ["Artist/Album (1)", "Ärger/x y"] {
                var placed: [(folder: TrackLocation, track: TrackLocation)] = []
                for root in ["file:///srv/music/", "https://dav.example/remote.php/dav/files/anna/Music/"] {
                    let folder = folderName.split(separator: "/").map { CanonicalURL.segment(naming: String($0)) }.joined(separator: "/") + "/"
                    placed.append((sources.location(of: root + folder), sources.location(of: root + folder + CanonicalURL.segment(naming: name))))
                }
                let encoded = folderName.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed)! + "/"
                let file = name.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
                placed.append((sources.location(of: "https://media.example.com/music/" + encoded), sources.location(of: "https://media.example.com/music/" + encoded + file)))
                placed.append((TrackLocation(source: "s3", key: folderName + "/"), TrackLocation(source: "s3", key: folderName + "/" + name)))
                for (folder, track) in placed {
                    #expect(track.source != nil && track.uri.hasPrefix(folder.uri), "\(track.uri) in \(folder.uri)")
                    let row = LibraryTrack(url: track.uri, source: track.source ?? "", folder: folder.uri)
                    #expect(paths.path(of: row) == paths.path(of: track.uri), "\(track.uri)")
                    checked += 1
                }
            }
        }
        #expect(checked == Self.names.count * 8)
        // A name the slow way shows decoded where its source's segments are names.
        let dav = LibraryTrack(url: sources.location(of: "https://dav.example/remote.php/dav/files/anna/Music/A/a%20b.mp3").uri, source: "dav",
                               folder: sources.location(of: "https://dav.example/remote.php/dav/files/anna/Music/A/").uri)
        #expect(paths.path(of: dav) == "dav/A/a b.mp3")
    }

    @Test("a song's location by its MPD path, from its folder's, is the one its whole path places: local, WebDAV, HTTP and S3 sources, tricky names")
    func locationFromFolderAsWhole() throws {
        let sources = try Self.sources()
        let paths = SongPaths(sources: sources)
        var checked = 0
        for source in ["here", "dav", "web"] {
            for folder in ["", "Artist/Album (1)", "Ärger/x y", "100%/a%2Fb", "ques?tion#/sp ace "] {
                for name in Self.names {
                    let path = source + "/" + (folder.isEmpty ? "" : folder + "/") + name
                    // Asked twice: the second from the folder placed by the first.
                    let first = paths.location(ofPath: path), second = paths.location(ofPath: path)
                    // Placed whole: the key of a source whose segments are names holds them as key
                    // segments, another's the path as it is.
                    let segments = (folder.isEmpty ? [] : folder.split(separator: "/").map(String.init)) + [name]
                    let key = source == "web" ? segments.joined(separator: "/") : segments.map(TrackLocation.keySegment(naming:)).joined(separator: "/")
                    let whole = sources.location(of: TrackLocation(source: source, key: key).uri).uri
                    #expect(first == whole && second == whole, "\(path): \(first ?? "nil") / \(second ?? "nil"), whole \(whole)")
                    checked += 1
                }
            }
        }
        #expect(checked == 3 * 5 * Self.names.count)
    }

    @Test("the paths MPD gives follow the sources: kept while they are the same, placed anew once a reload renames one")
    func followReloads() async throws {
        func sources(named name: String) throws -> SourceSet {
            try Configuration.parse("""
                [[source]]
                name = "\(name)"
                type = "local"
                path = "/srv/music"
                """, relativeTo: FileManager.default.temporaryDirectory).sources
        }
        let loader = LoaderActor(sources: try sources(named: "here"))
        let database = MPDLibraryDatabase(library: LibraryActor(), loader: loader)
        let track = LibraryTrack(url: "file:///srv/music/Art%20ist/a%20b.mp3", source: "here", folder: "file:///srv/music/Art%20ist/")
        #expect(await database.paths.path(of: track) == "here/Art ist/a b.mp3")
        #expect(await database.paths.path(of: track) == "here/Art ist/a b.mp3")
        await loader.reload(settings: LoaderSettings(), sources: try sources(named: "there"))
        #expect(await database.paths.path(of: track) == "there/Art ist/a b.mp3")
        #expect(await database.paths.path(of: "file:///srv/music/Art%20ist/") == "there/Art ist")
    }
}

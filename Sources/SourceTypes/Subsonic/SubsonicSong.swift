import Loader
import Model
import Parsers
import SubsonicAnswers

/// A song element (`child` in the API's terms) as a file of the storage, with the server's tags:
/// the scanner records it as it is, reading none of its bytes.
enum SubsonicSong {
    static func file(_ song: SubsonicElement, source: SubsonicSource) -> StorageFile? {
        guard let id = song["id"], song["isDir"] != "true", song["isVideo"] != "true" else { return nil }
        let tags = TrackTags(title: song["title"], artist: song["artist"], album: song["album"],
                             albumArtist: song["albumArtist"] ?? song["displayAlbumArtist"], trackNumber: song.integer("track"),
                             genre: song["genre"], year: song.integer("year"), discNumber: song.integer("discNumber"))
        let suffix = (source.format ?? song["suffix"] ?? "").lowercased()
        // The scanner knows audio by its name: the stored file's, else (and for a transcode) the
        // title and the format's suffix.
        let stored = source.format == nil ? song["path"].flatMap { $0.split(separator: "/").last.map(String.init) } : nil
        let name = stored.map({ $0.lowercased().hasSuffix("." + suffix) }) == true ? stored! : "\(song["title"] ?? id).\(suffix)"
        let duration = song["duration"].flatMap(Double.init)
        // A transcode is not as long as the file: its length is known once it has come.
        let info = source.format == nil ? song.integer("size").map { ResourceInfo(length: Int64($0), validator: nil) } : nil
        return StorageFile(location: source.key(ofSong: id).location(in: source.name), name: name, info: info,
                           listed: ListedTrack(metadata: TrackMetadata(tags: tags, duration: duration), codec: codec(suffix)))
    }

    private static func codec(_ suffix: String) -> AudioCodec? {
        switch suffix {
        case "mp3": .mp3
        case "opus": .opus
        case "flac": .flac
        case "ogg", "oga": .vorbis
        default: nil
        }
    }
}

import FeedAnswers
import FoundationEssentials
import Loader
import Model
import Parsers

/// A podcast feed (RSS or Atom) as a storage of one folder: its episodes, newest first, with what
/// the feed says of them — no ranged reads. An episode is a link of the feed
/// (`SourceSet.location(ofLink:in:)`): another source's credentials never go with it. Unchanged on the server (304), the feed is not parsed again.
struct FeedStorage: MediaStorage {
    /// The largest feed read.
    static let largestFeed = 16 << 20

    let input: HTTPInput
    let sources: SourceSet
    let root: StorageFolder
    /// The feed's own URL: its links are relative to it.
    let url: URL

    init(root: SourceRoot, input: HTTPInput, sources: SourceSet) {
        self.input = input
        self.sources = sources
        self.root = StorageFolder(location: root.location, name: root.source)
        url = root.url.url
    }

    var rootFailure: String { "cannot read the feed" }

    nonisolated(nonsending) func list(_ folder: StorageFolder, ifChangedSince version: String?) async throws -> StorageListing? {
        guard let document = try await input.document(folder.location, limit: Self.largestFeed, ifNoneMatch: version) else {
            return nil
        }
        let feed = try FeedParser.parse(document.bytes, base: url)
        var listing = StorageListing()
        listing.version = document.validator
        listing.feedTitle = feed.title
        listing.files = feed.items.map { item in
            let tags = TrackTags(title: item.title, artist: feed.author ?? feed.title, album: feed.title, genre: "Podcast")
            return StorageFile(location: sources.location(ofLink: item.url, in: folder.location), name: item.title,
                               info: item.length.map { ResourceInfo(length: $0, validator: nil) },
                               listed: ListedTrack(metadata: TrackMetadata(tags: tags, duration: item.duration,
                                                                           chaptersURL: item.chaptersURL?.absoluteString),
                                                   codec: item.mimeType.flatMap(Self.codec(ofMimeType:)), published: item.published))
        }
        return listing
    }

    private static func codec(ofMimeType type: String) -> AudioCodec? {
        switch type.lowercased() {
        case "audio/mpeg", "audio/mp3": .mp3
        case "audio/ogg", "audio/opus": .opus
        case "audio/flac", "audio/x-flac": .flac
        case "audio/vorbis": .vorbis
        case "audio/wav", "audio/x-wav", "audio/wave", "audio/vnd.wave": .wav
        case "audio/aiff", "audio/x-aiff": .aiff
        case "audio/mp4", "audio/x-m4a", "audio/m4a", "audio/aac", "audio/x-m4b": .aac
        default: nil
        }
    }
}

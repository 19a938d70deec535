import FoundationEssentials
import Model

/// What a scan walks: a source's folders, one level at a time (MPD's storage plugins).
package protocol MediaStorage: Sendable {
    /// The folder a scan starts from.
    var root: StorageFolder { get }

    /// What `folder` holds; nil when it is unchanged since the listing whose `version` is
    /// given (a feed that answers 304). Runs on the caller's executor: a listing of the local
    /// disk blocks it.
    nonisolated(nonsending) func list(_ folder: StorageFolder, ifChangedSince version: String?) async throws -> StorageListing?

    /// What a scan says when the root cannot be listed: "cannot list" and the root, as the user
    /// wrote it (without credentials).
    var rootFailure: String { get }

    /// The setting that names the root, for the hint when it is not there (`url`, `path`).
    var rootSetting: String { get }
}

extension MediaStorage {
    package var rootFailure: String { "cannot list the source" }
    package var rootSetting: String { "url" }

    /// Why the root could not be listed, for a line that names the source and the root already
    /// (`rootFailure`): neither said again ("box: cannot list /Gone: not in Box", where the
    /// error says "box: /Gone: not in Box"), and a root that is not there pointed at the setting
    /// that names it.
    package func rootReason(_ error: any Error, source: String) -> String {
        if case LoaderError.notFound? = error as? LoaderError {
            return "no such folder; check the source's \(rootSetting)"
        }
        var text = Substring("\(error)")
        if text.hasPrefix(source + ": ") { text = text.dropFirst(source.count + 2) }
        if let colon = text.firstRange(of: ": "), colon.lowerBound > text.startIndex, rootFailure.hasSuffix(" " + text[..<colon.lowerBound])
            || rootFailure.hasSuffix(":" + text[..<colon.lowerBound]) {
            text = text[colon.upperBound...]
        }
        return String(text)
    }
}

/// A folder of a storage: where it is, and what to call it.
package struct StorageFolder: Hashable, Sendable {
    package var location: TrackLocation
    package var name: String

    package init(location: TrackLocation, name: String) {
        self.location = location
        self.name = name
    }
}

/// One folder's contents.
package struct StorageListing: Sendable {
    package var folders: [StorageFolder] = []
    package var files: [StorageFile] = []
    /// What the folder's answer was validated with (a feed's ETag), to ask "changed?" next time.
    package var version: String?
    /// A feed: its title; its files are its episodes, newest first — a playlist in that order.
    package var feedTitle: String?
    /// A playlist the source keeps (a Subsonic server's): its title; its files, in order, are
    /// its items, each recorded as a track where its own folder is listed.
    package var playlistTitle: String?
    /// Entries left out, one line each (a link pointing outside the source).
    package var problems: [String] = []

    package init() {}
}

/// A file of a storage, with what the listing already says of it.
package struct StorageFile: Sendable {
    package var location: TrackLocation
    /// Its file name.
    package var name: String
    /// Length and version, when the listing gives them: an unchanged file is not read again.
    package var info: ResourceInfo?
    /// What the listing knows of the track (a feed's episode, a Subsonic song): its tags need
    /// no reading.
    package var listed: ListedTrack?

    package init(location: TrackLocation, name: String, info: ResourceInfo? = nil, listed: ListedTrack? = nil) {
        self.location = location
        self.name = name
        self.info = info
        self.listed = listed
    }
}

/// What a listing says of a track, for one that needs no reading of its own.
package struct ListedTrack: Sendable {
    package var metadata: TrackMetadata
    package var codec: AudioCodec?
    package var published: Date?

    package init(metadata: TrackMetadata, codec: AudioCodec? = nil, published: Date? = nil) {
        self.metadata = metadata
        self.codec = codec
        self.published = published
    }
}

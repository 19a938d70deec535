import Base
import FoundationEssentials
import Loader
import Model
import Parsers

/// A `radio` source as a storage of one folder: its stations, those of the config first, then
/// those of its station list, in order. Listed like a feed — each station a track with what the
/// list calls it, the source a playlist of them — and never connected to while scanning.
struct RadioStorage: MediaStorage {
    let source: RadioSource
    let input: RadioInput

    var root: StorageFolder { StorageFolder(location: TrackLocation(source: source.name, key: ""), name: source.name) }

    var rootFailure: String { "cannot read the station list" }

    nonisolated(nonsending) func list(_ folder: StorageFolder, ifChangedSince version: String?) async throws -> StorageListing? {
        var listing = StorageListing()
        listing.feedTitle = source.name
        for station in source.listed {
            listing.files.append(file(source.location(of: station.url), name: station.name, genre: station.genre))
        }
        guard let list = source.stations else { return listing }
        let bytes: [UInt8]
        if list.isFileURL {
            let path = list.path
            bytes = try await BlockingPool.shared.run {
                try FileByteSource(path: path).readBytes(in: 0..<Int64(StationList.maxBytes) + 1)
            }
        } else {
            guard let document = try await input.document(source.location(of: list), limit: StationList.maxBytes, ifNoneMatch: nil) else {
                return nil
            }
            bytes = document.bytes
        }
        switch try StationList.read(bytes, contentType: nil, name: list.lastPathComponent, base: list) {
        case .stations(_, let items):
            for item in items where ["http", "https"].contains(item.url.scheme?.lowercased() ?? "") {
                listing.files.append(file(source.location(of: item.url), name: item.title ?? item.url.host ?? item.url.absoluteString, genre: nil))
            }
        case .hls:
            listing.files.append(file(source.location(of: list), name: list.lastPathComponent, genre: nil))
        case .webPage, .notAList:
            listing.problems.append("\(list.isFileURL ? list.path : list.absoluteString) is not a station list (M3U, PLS, XSPF or ASX)")
        }
        return listing
    }

    private func file(_ location: TrackLocation, name: String, genre: String?) -> StorageFile {
        StorageFile(location: location, name: name,
                    listed: ListedTrack(metadata: TrackMetadata(tags: TrackTags(title: name, genre: genre))))
    }
}

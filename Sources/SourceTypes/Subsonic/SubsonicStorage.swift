import Loader
import Model
import Parsers
import SubsonicAnswers

/// A Subsonic server's library as folders: the root holds its albums (`getAlbumList2`, pages of
/// 500) and its playlists (`getPlaylists`); an album (`getAlbum`) holds its songs, with the
/// server's tags; a playlist (`getPlaylist`) lists its songs in order. A library of 2,000 songs
/// in 200 albums is about 200 requests, and no byte of audio.
struct SubsonicStorage: MediaStorage {
    /// Albums per `getAlbumList2` page: the most the API allows.
    static let pageSize = 500
    /// At most this many pages: a server that pages endlessly ends here.
    static let pageLimit = 2_000

    let client: SubsonicClient

    var root: StorageFolder {
        StorageFolder(location: SubsonicKey.root.location(in: client.name), name: client.name)
    }

    var rootFailure: String { "cannot read the server's library" }

    nonisolated(nonsending) func list(_ folder: StorageFolder, ifChangedSince version: String?) async throws -> StorageListing? {
        guard folder.location.source == client.name, let key = SubsonicKey(folder.location.key) else {
            throw LoaderError.badResponse("not a folder of this source")
        }
        switch key {
        case .root: return try await rootListing()
        case .album(let id): return try await albumListing(id)
        case .playlist(let id): return try await playlistListing(id)
        case .song, .stream: throw LoaderError.badResponse("a song is not a folder")
        }
    }

    private nonisolated(nonsending) func rootListing() async throws -> StorageListing {
        var listing = StorageListing()
        var seen: Set<String> = []
        for page in 0..<Self.pageLimit {
            let answer = try await client.call("getAlbumList2", [("type", "alphabeticalByArtist"), ("size", String(Self.pageSize)),
                                                                 ("offset", String(page * Self.pageSize))])
            let albums = answer.first("albumList2")?.all("album") ?? []
            for album in albums {
                guard let id = album["id"], seen.insert(id).inserted else { continue }
                listing.folders.append(StorageFolder(location: SubsonicKey.album(id).location(in: client.name),
                                                     name: album["name"] ?? album["title"] ?? id))
            }
            if albums.count < Self.pageSize { break }
        }
        let playlists = try await client.call("getPlaylists")
        for playlist in playlists.first("playlists")?.all("playlist") ?? [] {
            guard let id = playlist["id"] else { continue }
            listing.folders.append(StorageFolder(location: SubsonicKey.playlist(id).location(in: client.name), name: playlist["name"] ?? id))
        }
        return listing
    }

    private nonisolated(nonsending) func albumListing(_ id: String) async throws -> StorageListing {
        let answer = try await client.call("getAlbum", [("id", id)])
        var listing = StorageListing()
        listing.files = (answer.first("album")?.all("song") ?? []).compactMap { SubsonicSong.file($0, source: client.source) }
        return listing
    }

    private nonisolated(nonsending) func playlistListing(_ id: String) async throws -> StorageListing {
        let answer = try await client.call("getPlaylist", [("id", id)])
        let playlist = answer.first("playlist")
        var listing = StorageListing()
        listing.playlistTitle = playlist?["name"] ?? id
        listing.files = (playlist?.all("entry") ?? []).compactMap { SubsonicSong.file($0, source: client.source) }
        return listing
    }
}

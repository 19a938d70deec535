import Base
import FoundationEssentials
import Glibc
import Library
import Loader
import Model

/// `albumart URI OFFSET` and `readpicture URI OFFSET`: a song's cover in chunks of at most the
/// client's `binarylimit`, `size` first (and `type` for `readpicture`), as MPD sends them. The
/// cover is the one MPRIS shows: the picture the scan took from the file's tags (kept in the
/// art cache), else the one its source keeps apart (a Subsonic cover), else the one in the
/// file's tags read now, else MPD's own: a `cover.png`/`.jpg`/… in the song's folder — each
/// fetched into the cache as needed.
package enum Art: MPDCommandFamily {
    package static let commands: [String: MPDCommand] = [
        "albumart": MPDCommand(.read, arguments: 2...2) { call in try await send(&call, withType: false) },
        "readpicture": MPDCommand(.read, arguments: 2...2) { call in try await send(&call, withType: true) },
    ]

    static func send(_ call: inout MPDCall, withType: Bool) async throws {
        let offset = try call.unsigned(1)
        let file: URL?
        if let last = call.session.lastCover, last.command == call.name, last.uri == call.arguments[0], offset > 0 {
            file = last.file
        } else {
            file = try await find(call)
            call.session.lastCover = (call.name, call.arguments[0], file)
        }
        guard let file else {
            // MPD answers a song without a picture so for `albumart`; `readpicture` says nothing.
            if withType { return }
            throw MPDError(.noExist, "No file exists")
        }
        let limit = max(64, call.session.binaryLimit)
        let chunk = try await BlockingPool.shared.run { try Self.read(file, from: offset, upTo: limit) }
        guard offset <= chunk.size else { throw MPDError(.argument, "Offset too large") }
        call.response.field("size", chunk.size)
        if withType, let type = Artwork.imageType(of: chunk.head) { call.response.field("type", type) }
        call.response.binary(chunk.bytes)
    }

    /// The cover of the song or folder the call names, as a local file; nil if it has none.
    static func find(_ call: MPDCall) async throws -> URL? {
        let withType = call.name == "readpicture"
        let database = try DatabaseCommands.libraryDatabase(call)
        let paths = await database.paths
        let file: URL?
        if let location = paths.location(ofPath: call.arguments[0]),
           let track = try await database.library.track(at: TrackLocation(uri: location)) {
            file = await cover(of: track, placed: paths.sources.location(of: track.url), from: database.loader, embeddedOnly: withType)
        } else if !withType, let folder = paths.folderLocation(ofPath: call.arguments[0]) {
            // `albumart` of a folder (Cantata asks so: `albumart "Artist/Album/" 0`): its cover file.
            file = await database.loader.folderArtwork(of: paths.sources.location(of: folder))
        } else {
            throw MPDError.noSuchSong
        }
        return file
    }

    /// The song's cover as a local file, found as the type's doc comment says; nil if none.
    /// `embeddedOnly` (`readpicture`): the picture in the file's tags alone, as MPD answers it —
    /// a client asks `albumart` for the folder's, and chooses between the two.
    static func cover(of track: LibraryTrack, placed: TrackLocation, from loader: LoaderActor, embeddedOnly: Bool = false) async -> URL? {
        if let cached = track.artPath { return URL(fileURLWithPath: cached) }
        if !embeddedOnly, let kept = await loader.sourceArtwork(of: placed) { return kept }
        if let size = track.size, let embedded = await loader.embeddedArtwork(of: placed, length: size) { return embedded }
        return embeddedOnly ? nil : await loader.folderArtwork(of: placed)
    }

    /// Up to `limit` bytes of `file` from `offset`, the file's size and its first bytes (which
    /// say its type, in every chunk's answer: python-mpd2 refuses a chunk whose `type` differs).
    /// `pread`: the pool's thread blocks, no other.
    static func read(_ file: URL, from offset: Int, upTo limit: Int) throws -> (size: Int, bytes: [UInt8], head: [UInt8]) {
        let descriptor = open(file.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw MPDError(.noExist, "No file exists") }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw MPDError(.system, "cannot read the cover") }
        let size = Int(status.st_size)
        func bytes(at start: Int, count: Int) throws -> [UInt8] {
            var bytes = [UInt8](repeating: 0, count: count)
            let read = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, off_t(start)) }
            guard read >= 0 else { throw MPDError(.system, "cannot read the cover") }
            return Array(bytes.prefix(read))
        }
        let head = try bytes(at: 0, count: min(12, size))
        guard offset < size else { return (size, [], head) }
        return (size, try bytes(at: offset, count: min(limit, size - offset)), head)
    }
}

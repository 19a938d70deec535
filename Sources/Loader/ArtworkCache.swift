import Base
import Cache
import FoundationEssentials
import Model

/// Embedded cover art as files, for MPRIS clients that take only a local `file://` art URL
/// (GNOME Shell among them). Content-addressed: a file's name is a hash of its picture, so a
/// cover shared by a whole album is written once, and no name says anything about the track.
package struct ArtworkCache: Sendable {
    let directory: URL
    /// The folders' own cover files found so far (or found missing).
    let folderCovers = FolderCovers()

    /// The file holding `artwork`, written (owner-only, atomically) if it is not there yet.
    func store(_ artwork: Artwork) throws -> URL {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        let file = directory.appendingPathComponent("\(Self.name(of: artwork.data)).\(artwork.fileExtension)")
        if FileManager.default.fileExists(atPath: file.path) { return file }
        try AtomicFile.write(artwork.data, to: file)
        return file
    }

    /// FNV-1a over the bytes, with their count: distinct pictures get distinct names.
    private static func name(of bytes: [UInt8]) -> String {
        String(FNVHash.hash(bytes), radix: 16) + "-" + String(bytes.count, radix: 16)
    }
}

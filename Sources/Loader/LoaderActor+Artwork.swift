import Base
import FoundationEssentials
import Model
import Parsers

/// Cover art as local files, for MPRIS's `mpris:artUrl`.
extension LoaderActor {
    /// A local file holding `art`, for MPRIS's `mpris:artUrl`: written and synced on the
    /// `BlockingPool`, not on the loader's thread that downloads wait for.
    package nonisolated func storeArtwork(_ art: Artwork) async throws -> URL {
        try await BlockingPool.shared.run { [artwork] in try artwork.store(art) }
    }

    /// A local file holding the cover art the source of a track keeps apart from it
    /// (`RemoteInput.artwork`); nil when it has none, or cannot give it now (that is only logged).
    package func sourceArtwork(of location: TrackLocation) async -> URL? {
        guard case .remote(let input)? = try? input(for: location) else { return nil }
        do {
            guard let art = try await input.artwork(location) else { return nil }
            return try await storeArtwork(art)
        } catch {
            logger.debug("no cover art from the source", metadata: ["source": "\(input.name)", "reason": "\(error)"])
            return nil
        }
    }

    /// The names MPD's `albumart` looks for in a song's folder, in its order (its protocol
    /// documentation, "albumart").
    static let folderCoverNames = ["cover.png", "cover.jpg", "cover.tiff", "cover.bmp"]

    /// The picture kept beside a track in its folder (`cover.jpg` …): what MPD's `albumart`
    /// serves, and where many libraries keep one picture an album. Fetched through the track's
    /// own source (its credentials, its cache of nothing: a cover is small) into the art cache,
    /// once a folder (`FolderCovers`); nil when the folder has none.
    package func folderArtwork(of location: TrackLocation) async -> URL? {
        guard let slash = location.uri.lastIndex(of: "/") else { return nil }
        let folder = String(location.uri[...slash])
        if let known = artwork.folderCovers.cover(of: folder) {
            guard let file = known else { return nil }
            // Found before, unless the art cache lost it since (a stat: on the pool).
            if (try? await BlockingPool.shared.run { FileManager.default.fileExists(atPath: file.path) }) == true { return file }
        }
        // Only a folder whose source said "not found" for each name is remembered as having none.
        var answered = true
        for name in Self.folderCoverNames {
            let fetched: FetchedDocument?
            do {
                fetched = try await document(sources.location(of: folder + name), limit: 16 << 20)
            } catch {
                if (error as? LoaderError) != .notFound { answered = false }
                continue
            }
            guard let fetched, !fetched.bytes.isEmpty else { continue }
            let type = name.hasSuffix(".png") ? "image/png" : fetched.contentType ?? "image/jpeg"
            do {
                let file = try await storeArtwork(Artwork(data: fetched.bytes, mimeType: type))
                artwork.folderCovers.remember(file, of: folder)
                return file
            } catch {
                logger.debug("cannot keep the folder's cover", metadata: ["reason": "\(error)"])
                return nil
            }
        }
        if answered { artwork.folderCovers.remember(nil, of: folder) }
        return nil
    }

    /// Forgets which folders have a cover file: the next `albumart` asks their sources again.
    package nonisolated func forgetFolderCovers() {
        artwork.folderCovers.forget()
    }

    /// The cover in a track's own tags, read as a scan reads them but with the pictures (a scan
    /// skips them; playing the track finds them too): for a client that asks for a cover before
    /// the track has played. Nil when it has none or cannot be read.
    package func embeddedArtwork(of location: TrackLocation, length: Int64) async -> URL? {
        do {
            let scanned = try await TagReader.read(length: length, chapters: false) { range in try await self.bytes(in: range, of: location) }
            guard let art = scanned.tags.artwork else { return nil }
            return try await storeArtwork(art)
        } catch {
            logger.debug("no cover art in the track's tags", metadata: ["reason": "\(error)"])
            return nil
        }
    }
}

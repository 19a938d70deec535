import GoogleDriveAnswers
import Loader
import Model
import Parsers

/// A drive's folders: `files.list` of what a folder holds, a page of `pageSize` at a time,
/// `nextPageToken` to the next. Files come with `size` and `md5Checksum`, so a rescan reads no
/// unchanged file; their tags are read by ranged reads of their heads. Google Docs editors files
/// (no bytes) are left out; a shortcut is followed once, to its target — a folder or a file listed
/// under the shortcut's name, unless it holds the shortcut (a cycle, refused) or is inside the
/// folder scanned (listed at its own place only: one track, its tags read once, whichever place
/// the user opens in Drive); two items of one name in a folder are reported, as no path can tell
/// them apart. Two shortcuts to one file outside the folder scanned are two tracks: the storage
/// lists a folder at a time and keeps no list of targets across a scan.
struct GoogleDriveStorage: MediaStorage {
    let client: GoogleDriveClient

    var root: StorageFolder {
        StorageFolder(location: TrackLocation(source: client.name, key: GoogleDrivePath.key(ofPath: client.source.path)), name: client.name)
    }

    var rootFailure: String { "cannot list \(client.source.folderID.map { "folder \($0)" } ?? client.source.path)" }

    nonisolated(nonsending) func list(_ folder: StorageFolder, ifChangedSince version: String?) async throws -> StorageListing? {
        guard folder.location.source == client.name else { throw LoaderError.badResponse("not a folder of this source") }
        let key = folder.location.key
        let path = GoogleDrivePath.path(ofKey: key)
        let folderID = try await client.id(of: key)
        var listing = StorageListing()
        let (items, complete) = try await client.list(folderID, about: path)
        if !complete { listing.problems.append("listed only the first \(GoogleDriveClient.mostPages) pages of \(path)") }
        // The folders holding this one, by id: a shortcut to one of them would list it again and again.
        let holders = Set((GoogleDrivePath.ancestors(of: key) + [key]).compactMap { client.ids.id(of: $0) } + [folderID])
        var counts: [String: Int] = [:]
        for item in items where !item.isGoogleApp { counts[item.name, default: 0] += 1 }
        for item in items where !item.isGoogleApp {
            let itemPath = GoogleDrivePath.path(ofKey: GoogleDrivePath.key(of: item.name, in: key))
            guard !item.name.isEmpty, !item.name.contains("/"), item.name != ".", item.name != ".." else {
                listing.problems.append("\(path): an item named \"\(item.name)\", which no path can name")
                continue
            }
            guard counts[item.name] == 1 else {
                if !listing.problems.contains(where: { $0.hasPrefix(itemPath + ": ") }) {
                    listing.problems.append("\(itemPath): \(counts[item.name] ?? 0) items of that name in \(path), which no path can tell apart; none is listed (rename one in Drive)")
                }
                continue
            }
            let location = TrackLocation(source: client.name, key: GoogleDrivePath.key(of: item.name, in: key))
            var target = item
            if item.isShortcut {
                do {
                    guard let followed = try await follow(item, holders: holders, path: itemPath, problems: &listing.problems) else { continue }
                    target = followed
                } catch {
                    listing.problems.append("\(itemPath): a shortcut whose target could not be read: \(error)")
                    continue
                }
            }
            client.ids.keep(target.id, for: location.key)
            if target.isFolder {
                listing.folders.append(StorageFolder(location: location, name: item.name))
            } else if !target.isGoogleApp {
                listing.files.append(StorageFile(location: location, name: item.name,
                                                 info: target.size.map { ResourceInfo(length: $0, validator: GoogleDriveVersion.tag(of: target)) }))
            }
        }
        return listing
    }

    /// A shortcut's target, followed once: a folder that holds the shortcut is refused (a
    /// cycle), as is a shortcut to a shortcut; a Docs file is left out. nil: not listed.
    /// https://developers.google.com/drive/api/guides/shortcuts
    private nonisolated(nonsending) func follow(_ shortcut: GoogleDriveFile, holders: Set<String>, path: String,
                                                problems: inout [String]) async throws -> GoogleDriveFile? {
        guard let details = shortcut.shortcutDetails else {
            problems.append("\(path): a shortcut without its target's details")
            return nil
        }
        if holders.contains(details.targetId) {
            problems.append("\(path): a shortcut to a folder that holds it (a cycle); not followed")
            return nil
        }
        if details.targetMimeType == GoogleDriveFile.folderType {
            guard try await !listedElsewhere(details.targetId, path: path, problems: &problems) else { return nil }
            return GoogleDriveFile(id: details.targetId, name: shortcut.name, mimeType: GoogleDriveFile.folderType)
        }
        switch try await client.file(details.targetId, about: path) {
        case .missing:
            problems.append("\(path): a shortcut whose target is gone")
            return nil
        case .found(let target):
            if target.isShortcut {
                problems.append("\(path): a shortcut to another shortcut; followed once only, so not listed")
                return nil
            }
            if target.isFolder && holders.contains(target.id) {
                problems.append("\(path): a shortcut to a folder that holds it (a cycle); not followed")
                return nil
            }
            if target.isFolder, try await listedElsewhere(target.id, path: path, problems: &problems) { return nil }
            // A file inside the folder scanned is its track already, at its own place.
            if !target.isFolder, let parent = target.parents?.first,
               try await listedElsewhere(parent, path: path, problems: &problems, kind: "a file") { return nil }
            return target
        }
    }

    /// Whether the folder `id` a shortcut at `path` names (or the folder holding the file it
    /// names, `kind` "a file") is inside the folder scanned, where it is listed at its own place
    /// (said in `problems`): a shortcut does not list it twice.
    private nonisolated(nonsending) func listedElsewhere(_ id: String, path: String, problems: inout [String],
                                                         kind: String = "a folder") async throws -> Bool {
        guard try await client.isInside(id, rootKey: root.location.key) else { return false }
        problems.append("\(path): a shortcut to \(kind) inside the one scanned, listed at its own place; not listed twice")
        return true
    }
}

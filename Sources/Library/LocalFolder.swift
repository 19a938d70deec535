import Foundation
import Model
import Parsers

/// A folder on this machine listed as a WebDAV server would list it, so one walk scans both.
package enum LocalFolder {
    /// The folder's entries, one level deep; symbolic links are followed only to files
    /// (a link to a folder could loop). Blocks: call it off the cooperative pool.
    static func list(_ folder: URL) throws -> [DAVEntry] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        } catch {
            throw LoaderError.readFailed("cannot list the folder")
        }
        return names.sorted().compactMap { name -> DAVEntry? in
            guard !name.hasPrefix(".") else { return nil }
            let url = folder.appendingPathComponent(name)
            var link = stat()
            var info = stat()
            guard lstat(url.path, &link) == 0, stat(url.path, &info) == 0 else { return nil }
            let isLink = (link.st_mode & S_IFMT) == S_IFLNK
            let isFolder = (info.st_mode & S_IFMT) == S_IFDIR
            guard (info.st_mode & S_IFMT) == S_IFREG || (isFolder && !isLink) else { return nil }
            var entry = DAVEntry(href: isFolder ? url.absoluteString + (url.absoluteString.hasSuffix("/") ? "" : "/") : url.absoluteString)
            entry.isFolder = isFolder
            if !isFolder {
                entry.length = Int64(info.st_size)
                entry.lastModified = "\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)"
            }
            return entry
        }
    }
}

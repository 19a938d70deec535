/// A file's or folder's metadata as Dropbox API v2 describes it (`files/list_folder` entries,
/// `files/get_metadata`, a download's `Dropbox-API-Result`): `.tag` `file`, `folder` or `deleted`.
/// Only what a library needs. https://www.dropbox.com/developers/documentation/http/documentation#files-list_folder
package struct DropboxEntry: Decodable, Sendable, Equatable {
    package var tag: String
    package var name: String
    /// `/Music/Album/a.mp3`, as the user wrote it (the case of the folders above may differ).
    package var pathDisplay: String?
    package var pathLower: String?
    package var size: Int64?
    /// The revision: changes with every change of the file.
    package var rev: String?
    /// The Dropbox content hash (SHA-256 of the SHA-256 of each 4 MiB block): changes with the bytes.
    /// https://www.dropbox.com/developers/reference/content-hash
    package var contentHash: String?

    package var isFile: Bool { tag == "file" }
    package var isFolder: Bool { tag == "folder" }

    enum CodingKeys: String, CodingKey {
        case tag = ".tag"
        case name, size, rev
        case pathDisplay = "path_display"
        case pathLower = "path_lower"
        case contentHash = "content_hash"
    }

    package init(tag: String, name: String, pathDisplay: String?, size: Int64? = nil, rev: String? = nil, contentHash: String? = nil) {
        self.tag = tag
        self.name = name
        self.pathDisplay = pathDisplay
        self.pathLower = pathDisplay?.lowercased()
        self.size = size
        self.rev = rev
        self.contentHash = contentHash
    }
}

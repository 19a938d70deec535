/// An item of a Box folder, or a file asked for by id, with the fields a library asks for
/// (`fields=id,type,name,size,sha1,file_version,modified_at`): a `file`, a `folder`, or a
/// `web_link` (a bookmark, no bytes). https://developer.box.com/reference/resources/file,
/// https://developer.box.com/reference/resources/folder--mini,
/// https://developer.box.com/reference/resources/web-link--mini
package struct BoxItem: Decodable, Sendable, Equatable {
    package var type: String
    package var id: String
    package var name: String
    /// Bytes (a file's; a folder's is the sum of its files').
    package var size: Int64?
    /// The SHA-1 of the file's bytes, in hex.
    package var sha1: String?
    /// The file's current version: a new upload of the same file is a new one.
    package var fileVersion: FileVersion?
    package var modifiedAt: String?

    /// A file version (mini): https://developer.box.com/reference/resources/file-version--mini
    package struct FileVersion: Decodable, Sendable, Equatable {
        package var id: String
        package var sha1: String?

        package init(id: String, sha1: String? = nil) {
            self.id = id
            self.sha1 = sha1
        }
    }

    package var isFile: Bool { type == "file" }
    package var isFolder: Bool { type == "folder" }

    package init(type: String, id: String, name: String, size: Int64? = nil, sha1: String? = nil, fileVersion: FileVersion? = nil) {
        self.type = type
        self.id = id
        self.name = name
        self.size = size
        self.sha1 = sha1
        self.fileVersion = fileVersion
    }
}

/// A driveItem as Microsoft Graph describes it (`GET /me/drive/root:/PATH`, a folder's
/// `children`): a file (its `file` facet) or a folder (its `folder` facet). Only what a library
/// needs. https://learn.microsoft.com/graph/api/resources/driveitem
package struct OneDriveItem: Decodable, Sendable, Equatable {
    package var id: String
    package var name: String
    package var size: Int64?
    /// The content tag: changes when the bytes change, not on a rename (as `eTag` does).
    package var cTag: String?
    package var file: File?
    package var folder: Folder?
    /// `@microsoft.graph.downloadUrl`: a pre-authenticated URL valid for a short while.
    package var downloadURL: String?

    package var isFolder: Bool { folder != nil }

    /// The `file` facet: https://learn.microsoft.com/graph/api/resources/file
    package struct File: Decodable, Sendable, Equatable {
        package var mimeType: String?
        package var hashes: Hashes?

        package init(mimeType: String? = nil, hashes: Hashes? = nil) {
            self.mimeType = mimeType
            self.hashes = hashes
        }
    }

    /// The `hashes` of a file: https://learn.microsoft.com/graph/api/resources/hashes (personal
    /// drives have `sha256Hash` or `sha1Hash`, business drives `quickXorHash`).
    package struct Hashes: Decodable, Sendable, Equatable {
        package var sha256Hash: String?
        package var sha1Hash: String?
        package var quickXorHash: String?

        package init(sha256Hash: String? = nil, sha1Hash: String? = nil, quickXorHash: String? = nil) {
            self.sha256Hash = sha256Hash
            self.sha1Hash = sha1Hash
            self.quickXorHash = quickXorHash
        }
    }

    /// The `folder` facet.
    package struct Folder: Decodable, Sendable, Equatable {
        package var childCount: Int?
    }

    enum CodingKeys: String, CodingKey {
        case id, name, size, cTag, file, folder
        case downloadURL = "@microsoft.graph.downloadUrl"
    }

    package init(id: String, name: String, size: Int64? = nil, cTag: String? = nil, file: File? = nil) {
        self.id = id
        self.name = name
        self.size = size
        self.cTag = cTag
        self.file = file
    }
}

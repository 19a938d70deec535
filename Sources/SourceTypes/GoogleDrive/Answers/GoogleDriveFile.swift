/// A file resource as Drive API v3 describes it, with the fields a library asks for
/// (`fields=files(id,name,mimeType,size,md5Checksum,headRevisionId,modifiedTime,parents,shortcutDetails,
/// capabilities(canReadRevisions))`): a folder, a
/// shortcut, a Google Docs editors file, or a file with bytes (`size`, `md5Checksum`).
/// https://developers.google.com/drive/api/reference/rest/v3/files
package struct GoogleDriveFile: Decodable, Sendable, Equatable {
    package static let folderType = "application/vnd.google-apps.folder"
    package static let shortcutType = "application/vnd.google-apps.shortcut"

    package var id: String
    package var name: String
    package var mimeType: String
    /// The size in bytes: a string in the JSON (an int64), absent for Docs files and folders.
    package var size: Int64?
    /// The MD5 of the content: only files with bytes in Drive have one.
    package var md5Checksum: String?
    /// The revision holding the content now (files with bytes only): downloaded by it, bytes
    /// and version belong together even if the file changes meanwhile.
    package var headRevisionId: String?
    package var modifiedTime: String?
    /// The folder holding it (one at most, in Drive now); none for a drive's root.
    package var parents: [String]?
    package var shortcutDetails: ShortcutDetails?
    /// What the user may do with it (`capabilities(canReadRevisions)` only): a file shared as a
    /// viewer has `canReadRevisions` false, and its revisions' content answers 403
    /// insufficientFilePermissions (googleapis/google-api-python-client#1743).
    package var capabilities: Capabilities?

    package struct Capabilities: Decodable, Sendable, Equatable {
        package var canReadRevisions: Bool?
    }

    /// Whether its content can be read by revision: false only when Drive says so.
    package var readsRevisions: Bool { capabilities?.canReadRevisions != false }

    /// A shortcut's target. https://developers.google.com/drive/api/guides/shortcuts
    package struct ShortcutDetails: Decodable, Sendable, Equatable {
        package var targetId: String
        package var targetMimeType: String?
    }

    package var isFolder: Bool { mimeType == Self.folderType }
    package var isShortcut: Bool { mimeType == Self.shortcutType }
    /// A Google Docs editors file (Docs, Sheets, Slides, Forms…) or another Drive-only kind: it has
    /// no bytes to play. https://developers.google.com/drive/api/guides/mime-types
    package var isGoogleApp: Bool { mimeType.hasPrefix("application/vnd.google-apps.") && !isFolder && !isShortcut }

    enum CodingKeys: String, CodingKey {
        case id, name, mimeType, size, md5Checksum, headRevisionId, modifiedTime, parents, shortcutDetails, capabilities
    }

    package init(id: String, name: String, mimeType: String, size: Int64? = nil, md5Checksum: String? = nil) {
        self.id = id
        self.name = name
        self.mimeType = mimeType
        self.size = size
        self.md5Checksum = md5Checksum
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        name = try container.decode(String.self, forKey: .name)
        mimeType = try container.decode(String.self, forKey: .mimeType)
        if let text = try container.decodeIfPresent(String.self, forKey: .size) {
            guard let size = Int64(text), size >= 0 else {
                throw DecodingError.dataCorruptedError(forKey: .size, in: container, debugDescription: "not a size")
            }
            self.size = size
        }
        md5Checksum = try container.decodeIfPresent(String.self, forKey: .md5Checksum)
        headRevisionId = try container.decodeIfPresent(String.self, forKey: .headRevisionId)
        modifiedTime = try container.decodeIfPresent(String.self, forKey: .modifiedTime)
        parents = try container.decodeIfPresent([String].self, forKey: .parents)
        shortcutDetails = try container.decodeIfPresent(ShortcutDetails.self, forKey: .shortcutDetails)
        capabilities = try container.decodeIfPresent(Capabilities.self, forKey: .capabilities)
    }
}

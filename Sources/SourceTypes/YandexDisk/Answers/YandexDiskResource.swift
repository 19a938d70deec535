/// A resource as the Yandex.Disk REST API describes it (`GET /v1/disk/resources`): a file or a
/// folder, and for a folder one page of what it holds (`_embedded`). Only what a library needs.
/// https://yandex.com/dev/disk-api/doc/en/reference/meta
package struct YandexDiskResource: Decodable, Sendable, Equatable {
    /// `disk:/Music/a.mp3`.
    package var path: String
    package var name: String
    /// `dir` or `file`.
    package var type: String
    package var size: Int64?
    package var md5: String?
    package var sha256: String?
    package var embedded: YandexDiskPage?

    package var isFolder: Bool { type == "dir" }

    enum CodingKeys: String, CodingKey {
        case path, name, type, size, md5, sha256
        case embedded = "_embedded"
    }

    package init(path: String, name: String, type: String, size: Int64? = nil, md5: String? = nil, sha256: String? = nil,
                 embedded: YandexDiskPage? = nil) {
        self.path = path
        self.name = name
        self.type = type
        self.size = size
        self.md5 = md5
        self.sha256 = sha256
        self.embedded = embedded
    }
}

/// One page of a folder's items: `limit` asked for from `offset` on, of `total`.
package struct YandexDiskPage: Decodable, Sendable, Equatable {
    package var items: [YandexDiskResource]
    package var limit: Int?
    package var offset: Int?
    package var total: Int?
}

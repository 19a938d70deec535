/// One page of a folder listing (`ListFolderResult`): its entries, the `cursor` to ask
/// `files/list_folder/continue` for the next page with, and whether there is one (`has_more`).
/// https://www.dropbox.com/developers/documentation/http/documentation#files-list_folder
package struct DropboxListing: Decodable, Sendable, Equatable {
    package var entries: [DropboxEntry]
    package var cursor: String
    package var hasMore: Bool

    enum CodingKeys: String, CodingKey {
        case entries, cursor
        case hasMore = "has_more"
    }
}

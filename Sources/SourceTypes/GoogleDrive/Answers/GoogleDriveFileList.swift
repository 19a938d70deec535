/// A page of `files.list`: `files`, and `nextPageToken` while there are more.
/// https://developers.google.com/drive/api/reference/rest/v3/files/list
package struct GoogleDriveFileList: Decodable, Sendable, Equatable {
    package var files: [GoogleDriveFile]
    package var nextPageToken: String?
}

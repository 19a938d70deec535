/// A picture embedded in the file (ID3 APIC, Opus METADATA_BLOCK_PICTURE): the front cover if
/// there is one, else the first.
package struct Artwork: Sendable, Hashable {
    package var data: [UInt8]
    /// The file name extension its MIME type calls for ("jpg", "png", …).
    package var fileExtension: String

    package init(data: [UInt8], mimeType: String) {
        self.data = data
        switch mimeType.lowercased() {
        case "image/png": fileExtension = "png"
        case "image/gif": fileExtension = "gif"
        case "image/webp": fileExtension = "webp"
        default: fileExtension = "jpg"
        }
    }
}

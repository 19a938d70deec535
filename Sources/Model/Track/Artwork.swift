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

    /// The MIME type of a JPEG, PNG, GIF or WebP picture from its first 12 bytes; nil for anything
    /// else. The one test of what a picture is: MPD's `readpicture` type, a podcast chapter's
    /// fetched `img`, an M4B chapter track's stills.
    package static func imageType(of head: some Collection<UInt8>) -> String? {
        let bytes = Array(head.prefix(12))
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return "image/png" }
        if bytes.starts(with: Array("GIF8".utf8)) { return "image/gif" }
        if bytes.count == 12, bytes.starts(with: Array("RIFF".utf8)), bytes[8..<12].elementsEqual("WEBP".utf8) { return "image/webp" }
        return nil
    }
}

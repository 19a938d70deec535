import Model

/// Reads a FLAC picture block, the form Opus (and Vorbis) comments embed cover art in, as
/// base64 of METADATA_BLOCK_PICTURE.
package enum FLACPicture {
    /// The picture type (3 is the front cover) and the image, nil if the block is broken,
    /// empty, or its image is larger than `maxBytes`.
    static func parse(_ block: ArraySlice<UInt8>, maxBytes: Int) -> (type: UInt32, artwork: Artwork)? {
        var reader = ByteReader(block)
        guard let type = reader.u32be(),
              let mimeLength = reader.u32be(), mimeLength <= 256, let mime = reader.take(mimeLength),
              let descriptionLength = reader.u32be(), reader.skip(descriptionLength),
              reader.skip(16),  // width, height, colour depth, colours used
              let dataLength = reader.u32be(), dataLength > 0, dataLength <= maxBytes,
              let data = reader.take(dataLength) else { return nil }
        return (UInt32(type), Artwork(data: Array(data), mimeType: TextDecoding.latin1(mime)))
    }
}

/// The four bytes before each FLAC metadata block: whether it is the last, its type, its size.
/// A scan reads them to step over pictures and padding by size, without fetching them.
struct FLACBlockHeader {
    static let size = 4
    static let streamInfo: UInt8 = 0
    static let padding: UInt8 = 1
    static let vorbisComment: UInt8 = 4
    static let picture: UInt8 = 6

    var isLast: Bool
    var type: UInt8
    var bodySize: Int

    init?(_ bytes: ArraySlice<UInt8>) {
        guard bytes.count >= Self.size else { return nil }
        let b = Array(bytes.prefix(Self.size))
        isLast = b[0] & 0x80 != 0
        type = b[0] & 0x7F
        guard type != 127 else { return nil }  // invalid, so that a frame sync is never taken for a block
        bodySize = Int(b[1]) << 16 | Int(b[2]) << 8 | Int(b[3])
    }
}

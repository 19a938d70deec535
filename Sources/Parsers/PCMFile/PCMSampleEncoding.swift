/// How a WAV or AIFF file stores each sample: integer (unsigned only for 8-bit WAV), or IEEE
/// float, in either byte order.
package struct PCMSampleEncoding: Sendable, Equatable, CustomStringConvertible {
    package enum Kind: Sendable, Equatable {
        case unsigned
        case signed
        case float
    }

    package var kind: Kind
    /// Bytes per sample in the file: 1 to 4 for integers, 4 or 8 for floats.
    package var bytes: Int
    package var bigEndian: Bool

    package init(_ kind: Kind, bytes: Int, bigEndian: Bool) {
        self.kind = kind
        self.bytes = bytes
        self.bigEndian = bigEndian
    }

    /// Whether the player keeps it at 24 bits rather than 16: anything wider than 16-bit
    /// integers (24 stays 24 bits, as FLAC does; 32-bit and float are rounded to 24).
    package var isWide: Bool { kind == .float || bytes > 2 }

    package var description: String {
        kind == .float ? "\(bytes * 8)-bit float" : "\(bytes * 8)-bit"
    }
}

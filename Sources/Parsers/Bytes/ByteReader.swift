/// A bounds-checked cursor over bytes: every read past the end returns nil instead of trapping,
/// so parsers fed arbitrary bytes can fail but never crash.
package struct ByteReader {
    let bytes: ArraySlice<UInt8>
    /// Bytes read so far, from the start of `bytes`.
    private(set) var offset = 0

    init(_ bytes: ArraySlice<UInt8>) { self.bytes = bytes }
    init(_ bytes: [UInt8]) { self.bytes = bytes[...] }

    var remaining: Int { bytes.count - offset }

    mutating func u8() -> UInt8? {
        guard remaining >= 1 else { return nil }
        defer { offset += 1 }
        return bytes[bytes.startIndex + offset]
    }

    /// A big-endian unsigned integer of `count` (≤ 8) bytes.
    mutating func bigEndian(_ count: Int) -> UInt64? {
        guard count >= 0, count <= 8, let field = take(count) else { return nil }
        return field.reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// A little-endian unsigned integer of `count` (≤ 8) bytes.
    mutating func littleEndian(_ count: Int) -> UInt64? {
        guard count >= 0, count <= 8, let field = take(count) else { return nil }
        return field.reversed().reduce(0) { $0 << 8 | UInt64($1) }
    }

    mutating func u32be() -> Int? { bigEndian(4).map { Int($0) } }
    mutating func u32le() -> Int? { littleEndian(4).map { Int($0) } }

    /// The next `count` bytes, or nil (reading nothing) if fewer remain.
    mutating func take(_ count: Int) -> ArraySlice<UInt8>? {
        guard count >= 0, count <= remaining else { return nil }
        let start = bytes.startIndex + offset
        offset += count
        return bytes[start..<start + count]
    }

    /// Everything left.
    mutating func rest() -> ArraySlice<UInt8> {
        take(max(0, remaining)) ?? []
    }

    @discardableResult
    mutating func skip(_ count: Int) -> Bool {
        take(count) != nil
    }
}

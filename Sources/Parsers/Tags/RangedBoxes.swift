/// Box headers and small bodies of a file read through a window of fetched bytes: a header in
/// the window costs nothing, one outside it one fetch of `MP4TagReader.window`.
struct RangedBoxes {
    let length: Int64
    var start: Int64
    var bytes: [UInt8]

    /// The bytes of `range`, fetched unless the window holds them.
    mutating func bytes(_ range: Range<Int64>, isolation: isolated (any Actor)? = #isolation,
                        _ fetch: (Range<Int64>) async throws -> [UInt8]) async throws -> ArraySlice<UInt8> {
        if range.lowerBound < start || range.upperBound > start + Int64(bytes.count) {
            let fetched = range.lowerBound..<min(length, max(range.upperBound, range.lowerBound + MP4TagReader.window))
            bytes = try await TagReader.checkedFetch(fetched, fetch)
            start = fetched.lowerBound
        }
        return bytes[Int(range.lowerBound - start)..<Int(range.upperBound - start)]
    }

    mutating func body(_ box: MP4Box, isolation: isolated (any Actor)? = #isolation,
                       _ fetch: (Range<Int64>) async throws -> [UInt8]) async throws -> ArraySlice<UInt8> {
        let body = try await bytes(box.bodyStart..<box.end, fetch)
        return body[body.startIndex...]
    }

    /// The boxes in `range`, header by header.
    mutating func children(_ range: Range<Int64>, isolation: isolated (any Actor)? = #isolation,
                           _ fetch: (Range<Int64>) async throws -> [UInt8]) async throws -> [MP4Box] {
        var found: [MP4Box] = []
        var position = range.lowerBound
        while position + 8 <= range.upperBound, found.count < MP4FileReader.maxBoxes {
            let header = try await bytes(position..<min(range.upperBound, position + 16), fetch)
            guard let box = try MP4Box(header, at: position, containerEnd: range.upperBound) else { break }
            found.append(box)
            position = box.end
        }
        return found
    }
}

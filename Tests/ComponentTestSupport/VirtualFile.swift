import Parsers

/// A file seen only through ranged reads, as the library sees a remote one: counts the bytes
/// and requests asked for, and can pretend to be longer than its real bytes (zeros after them).
package final class VirtualFile {
    package let bytes: [UInt8]
    package let length: Int64
    package private(set) var fetchedBytes = 0
    package private(set) var requests: [Range<Int64>] = []

    package init(_ bytes: [UInt8], length: Int64? = nil) {
        self.bytes = bytes
        self.length = length ?? Int64(bytes.count)
    }

    package func fetch(_ range: Range<Int64>) throws -> [UInt8] {
        requests.append(range)
        guard range.lowerBound >= 0, range.upperBound <= length else { throw ParserFixtureError(message: "bad range \(range)") }
        fetchedBytes += range.count
        let realEnd = min(range.upperBound, Int64(bytes.count))
        var result = range.lowerBound < realEnd ? Array(bytes[Int(range.lowerBound)..<Int(realEnd)]) : []
        result += [UInt8](repeating: 0, count: range.count - result.count)
        return result
    }

    /// `pictures`: false reads as a library scan does.
    package func read(pictures: Bool = true) async throws -> ScannedTags {
        try await TagReader.read(length: length, pictures: pictures) { try self.fetch($0) }
    }
}

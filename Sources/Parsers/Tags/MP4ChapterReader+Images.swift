import Model

extension MP4ChapterReader {
    /// Bytes of chapter pictures fetched at most, all together (a book's stills are tens of KB each).
    static let maxPictureBytes: Int64 = 16 << 20

    /// `chapters` with the picture on screen at each one's start, from the samples of a chapter
    /// video track (QuickTime's chapter pictures: a still per chapter as Apple's tools write them,
    /// or fewer shown longer); a sample seen by several chapters is fetched once. A sample that is
    /// no picture (JPEG, PNG, GIF, WebP), one past the limits, or the rest after a failed fetch, gives no picture — the
    /// titles stay.
    static func withPictures(_ chapters: [Chapter], _ samples: [MP4SampleTable.Sample], timescale: Int, length: Int64,
                             isolation: isolated (any Actor)? = #isolation,
                             _ fetch: (Range<Int64>) async throws -> [UInt8]) async throws -> [Chapter] {
        guard !samples.isEmpty, timescale > 0 else { return chapters }
        var pictures: [Int64: Artwork] = [:]
        var fetched: Int64 = 0
        var result = chapters
        for index in result.indices {
            guard let sample = samples.sample(showing: result[index].start * Double(timescale)) else { continue }
            if let known = pictures[sample.offset] {
                result[index].art = .embedded(known)
                continue
            }
            let range = sample.offset..<(sample.offset + Int64(sample.size))
            fetched += Int64(sample.size)
            guard range.upperBound <= length, fetched <= maxPictureBytes else { break }
            let bytes: [UInt8]
            do {
                bytes = try await TagReader.checkedFetch(range, fetch)
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                break
            }
            guard let type = Artwork.imageType(of: bytes) else { continue }
            let picture = Artwork(data: bytes, mimeType: type)
            pictures[sample.offset] = picture
            result[index].art = .embedded(picture)
        }
        return result
    }
}

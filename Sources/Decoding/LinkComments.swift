import Model
import Parsers

/// A chained stream's link comments as libvorbisfile and libopusfile hand them (the same C layout:
/// `KEY=value` strings with their lengths), read as the library reads tags.
enum LinkComments {
    static func tags(_ texts: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, lengths: UnsafeMutablePointer<Int32>?,
                     count: Int32) -> TrackTags {
        guard let texts, let lengths else { return TrackTags() }
        let comments = (0..<Int(max(0, count))).compactMap { index -> ArraySlice<UInt8>? in
            guard let text = texts[index] else { return nil }
            return Array(UnsafeRawBufferPointer(start: text, count: max(0, Int(lengths[index]))))[...]
        }
        return VorbisComments.tags(comments)
    }
}

import Base

/// The `Content-Range` of a 206 (or 416) answer: which bytes came, of how many in all.
///
/// Parsed strictly (RFC 9110 §14.4): a server that lies in it must be caught before its bytes
/// are written into the cache at the wrong place.
package struct ContentRange: Sendable, Equatable {
    /// The bytes this answer carries; nil for the "unsatisfied" form `bytes */LENGTH` of a 416.
    package var range: Range<Int64>?
    /// The full length of the resource, when the server says it.
    package var completeLength: Int64?

    package init(range: Range<Int64>?, completeLength: Int64?) {
        self.range = range
        self.completeLength = completeLength
    }

    /// Parses a header value; nil if it is not a valid byte content range.
    package init?(_ value: String) {
        let text = value.trimmingBlanks()
        guard text.hasPrefix("bytes "), let slash = text.lastIndex(of: "/") else { return nil }
        let span = text[text.index(text.startIndex, offsetBy: 6)..<slash]
        let length = text[text.index(after: slash)...]
        if length == "*" {
            completeLength = nil
        } else {
            guard let total = Self.number(length) else { return nil }
            completeLength = total
        }
        if span == "*" {
            guard completeLength != nil else { return nil }  // "bytes */*" says nothing
            range = nil
            return
        }
        let bounds = span.split(separator: "-", omittingEmptySubsequences: false)
        guard bounds.count == 2, let first = Self.number(bounds[0]), let last = Self.number(bounds[1]),
              first <= last, last < Int64.max else { return nil }
        if let completeLength, last >= completeLength { return nil }
        range = first..<(last + 1)
    }

    /// A non-negative decimal that fits in Int64 (no sign, no spaces, no other characters).
    private static func number(_ text: Substring) -> Int64? {
        guard !text.isEmpty, text.count <= 19, text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int64(text)
    }
}

import Base
import Model
import NIOCore
import NIOHTTP1
import Parsers

/// The head of a station's answer as our own reader reads it (`ICYReader`): SHOUTcast 1's
/// `ICY 200 OK` status line, or HTTP/1.x's, then its headers up to the blank line. Lenient where
/// old station software is sloppy (bare LF line ends, a header line without a colon, Latin-1
/// in `icy-name`), strict where a mistake would play garbage: a first line that is neither
/// HTTP nor ICY is one error, and so is a head that never ends.
struct ICYHead: Sendable {
    var version: HTTPVersion
    var status: HTTPResponseStatus
    var headers: HTTPHeaders

    /// The most bytes of a head: a station's is a few hundred; more is a server that sends
    /// something else, and is refused rather than gathered without end.
    static let limit = 16 << 10

    /// Where the head ends in `bytes`: the offset of its blank line (`head`: the bytes the head
    /// is made of) and of the body's first byte; nil while the blank line has not come.
    static func end(in bytes: ByteBufferView) -> (head: Int, body: Int)? {
        var index = bytes.startIndex
        while let newline = bytes[index...].firstIndex(of: UInt8(ascii: "\n")) {
            var next = bytes.index(after: newline)
            if next < bytes.endIndex, bytes[next] == UInt8(ascii: "\r") { next = bytes.index(after: next) }
            if next < bytes.endIndex, bytes[next] == UInt8(ascii: "\n") {
                return (bytes.distance(from: bytes.startIndex, to: newline), bytes.distance(from: bytes.startIndex, to: next) + 1)
            }
            index = bytes.index(after: newline)
        }
        return nil
    }

    /// Reads a head (without its blank line).
    init(parsing bytes: some Collection<UInt8>) throws {
        var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { line in
            line.last == UInt8(ascii: "\r") ? line.dropLast() : line
        }[...]
        guard let first = lines.popFirst(), let (version, status) = Self.statusLine(first) else {
            throw LoaderError.badResponse("the server's answer is neither HTTP nor ICY")
        }
        self.version = version
        self.status = status
        headers = HTTPHeaders()
        for line in lines {
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { continue }
            let name = String(decoding: line[..<colon], as: UTF8.self).trimmingWhitespace()
            let value = line[line.index(after: colon)...]
            guard !name.isEmpty, !name.contains(" ") else { continue }
            let text = String(validating: value, as: UTF8.self) ?? TextDecoding.latin1(value)
            headers.add(name: name, value: text.trimmingWhitespace())
        }
    }

    /// `ICY 200 OK`, `HTTP/1.0 200 OK`, `HTTP/1.1 404 Not Found`: the version and status; nil for
    /// anything else.
    private static func statusLine(_ line: some Collection<UInt8>) -> (HTTPVersion, HTTPResponseStatus)? {
        let words = String(decoding: line, as: UTF8.self).split(separator: " ", maxSplits: 2)
        guard words.count >= 2, words[1].count == 3, let code = Int(words[1]), (100..<600).contains(code) else { return nil }
        let version: HTTPVersion
        switch words[0] {
        case "ICY", "HTTP/1.0": version = .http1_0
        case let word where word.hasPrefix("HTTP/1."): version = .http1_1
        default: return nil
        }
        let reason = words.count > 2 ? String(words[2]) : ""
        return (version, HTTPResponseStatus(statusCode: code, reasonPhrase: reason))
    }
}

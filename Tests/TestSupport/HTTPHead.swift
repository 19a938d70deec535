import Foundation

/// The head of an HTTP/1.1 request or response, as the fault proxy reads and rewrites it.
struct HTTPHead {
    /// "GET /x HTTP/1.1" or "HTTP/1.1 206 Partial Content".
    var startLine: String
    var headers: [(name: String, value: String)]
    /// Bytes read past the head: the start of the body.
    var leftover: [UInt8]

    var method: String { String(startLine.split(separator: " ").first ?? "") }
    var target: String { startLine.split(separator: " ").dropFirst().first.map(String.init) ?? "" }
    var statusCode: Int { startLine.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0 }
    var contentLength: Int? { self["content-length"].flatMap { Int($0) } }

    subscript(name: String) -> String? {
        headers.first { $0.name.lowercased() == name }?.value
    }

    mutating func setHeader(_ name: String, _ value: String) {
        headers.removeAll { $0.name.lowercased() == name.lowercased() }
        headers.append((name: name, value: value))
    }

    var serialized: String {
        ([startLine] + headers.map { "\($0.name): \($0.value)" }).joined(separator: "\r\n") + "\r\n\r\n"
    }

    /// Reads up to the blank line; nil if the peer closes first or sends more than 64 KiB of head.
    static func read(from fd: Int32) -> HTTPHead? {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let end: Int
        while true {
            if let found = terminator(in: bytes) {
                end = found
                break
            }
            guard bytes.count < 65536 else { return nil }
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return nil }
            bytes += buffer[0..<n]
        }
        let text = String(decoding: bytes[0..<end], as: UTF8.self)
        var lines = text.components(separatedBy: "\r\n")
        let start = lines.removeFirst()
        let headers = lines.compactMap { line -> (name: String, value: String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (name: String(line[..<colon]), value: line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        return HTTPHead(startLine: start, headers: headers, leftover: Array(bytes[(end + 4)...]))
    }

    private static func terminator(in bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for i in 0...(bytes.count - 4) where bytes[i] == 13 && bytes[i + 1] == 10 && bytes[i + 2] == 13 && bytes[i + 3] == 10 {
            return i
        }
        return nil
    }
}

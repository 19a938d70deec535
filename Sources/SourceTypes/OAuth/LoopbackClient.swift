import FoundationEssentials
import Glibc

/// One connection to the login's `LoopbackListener`, read a little at a time without blocking
/// until its request head is whole: a connection that sends nothing waits alone.
struct LoopbackClient {
    enum Read {
        /// No whole request yet.
        case waiting
        /// Closed, broken, or sending more than a request head.
        case gone
        /// The request's path and query.
        case request(path: String, query: [String: String])
    }

    /// The largest request head read.
    static let headLimit = 16_384

    let fd: Int32
    let deadline: ContinuousClock.Instant
    private var head: [UInt8] = []

    init(fd: Int32, deadline: ContinuousClock.Instant) {
        self.fd = fd
        self.deadline = deadline
    }

    /// What has come so far.
    mutating func read() -> Read {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            if count > 0 {
                head += buffer[0..<count]
                if let end = endOfHead() { return Self.request(in: head[..<end]) }
                if head.count > Self.headLimit { return .gone }
                continue
            }
            if count < 0, errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { return .waiting }
            return .gone
        }
    }

    /// Answers with a short plain-text page; a client that does not take it at once loses it.
    func answer(_ page: String) {
        let text = "HTTP/1.1 200 OK\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: \(page.utf8.count)\r\nConnection: close\r\n\r\n" + page
        _ = text.withCString { send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT)) }
    }

    func close() {
        _ = Glibc.close(fd)
    }

    private func endOfHead() -> Int? {
        let end: [UInt8] = Array("\r\n\r\n".utf8)
        guard head.count >= end.count else { return nil }
        for start in 0...(head.count - end.count) where head[start..<start + end.count].elementsEqual(end) { return start }
        return nil
    }

    private static func request(in head: ArraySlice<UInt8>) -> Read {
        let line = String(decoding: head.prefix { $0 != 0x0D && $0 != 0x0A }, as: UTF8.self)
        let target = line.split(separator: " ").dropFirst().first.map(String.init) ?? "/"
        guard let parts = URLComponents(string: "http://127.0.0.1" + target) else { return .request(path: "", query: [:]) }
        let items = parts.queryItems ?? []
        let query = Dictionary(items.compactMap { item in item.value.map { (item.name, $0) } }, uniquingKeysWith: { first, _ in first })
        return .request(path: parts.path, query: query)
    }
}

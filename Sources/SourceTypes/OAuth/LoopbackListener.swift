import Base
import FoundationEssentials
import Glibc
import Model

/// The redirect target of a browser login: one listening socket on 127.0.0.1 (never another
/// address), which takes the first request that brings a `code` or an `error`, answers it with a
/// short page, and hands its query back. It waits on a person, for minutes: without a thread —
/// the socket does not block and is looked at every 50 ms — and a cancelled wait ends at once. A
/// request that came is read and answered on the `BlockingPool`, for at most `clientTimeout`.
package final class LoopbackListener: Sendable {
    package let port: Int
    private let socket: Int32

    /// `port` 0: any free port.
    package init(port: Int = 0) throws {
        let fd = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw LoaderError.network("cannot open a socket for the login") }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 8) == 0, fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) == 0 else {
            close(fd)
            throw LoaderError.network("cannot listen on 127.0.0.1:\(port) for the login: \(String(cString: strerror(errno)))")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        socket = fd
        self.port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit {
        close(socket)
    }

    /// `http://127.0.0.1:PORT/`.
    package var redirectURI: String { "http://127.0.0.1:\(port)/" }

    /// Seconds a browser that connected has to send its request.
    static let clientTimeout = 10

    /// The query of the first request that has a `code` or an `error` parameter.
    package func awaitRedirect() async throws -> [String: String] {
        while true {
            let client = Glibc.accept(socket, nil, nil)
            guard client >= 0 else {
                switch errno {
                case EAGAIN, EWOULDBLOCK, EINTR: try await Task.sleep(for: .milliseconds(50))
                default: throw LoaderError.network("the login listener failed: \(String(cString: strerror(errno)))")
                }
                continue
            }
            if let query = try await BlockingPool.shared.run({ Self.answer(client) }) { return query }
        }
    }

    /// Reads a request on `client` and answers it; its query if it has a `code` or an `error`.
    private static func answer(_ client: Int32) -> [String: String]? {
        defer { close(client) }
        var timeout = timeval(tv_sec: clientTimeout, tv_usec: 0)
        setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var head = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while head.count < 16_384, !head.ends(with: Array("\r\n\r\n".utf8)) {
            let n = recv(client, &buffer, buffer.count, 0)
            if n <= 0 { break }
            head += buffer[0..<n]
        }
        let line = String(decoding: head.prefix { $0 != 0x0D && $0 != 0x0A }, as: UTF8.self)
        let target = line.split(separator: " ").dropFirst().first.map(String.init) ?? "/"
        let items = URLComponents(string: "http://127.0.0.1" + target)?.queryItems ?? []
        let query = Dictionary(items.compactMap { item in item.value.map { (item.name, $0) } }, uniquingKeysWith: { first, _ in first })
        let done = query["code"] != nil || query["error"] != nil
        let page = done ? "cloudplayerd: login received. You can close this window." : "cloudplayerd is waiting for the login."
        let answer = "HTTP/1.1 200 OK\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: \(page.utf8.count)\r\nConnection: close\r\n\r\n" + page
        _ = answer.withCString { send(client, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
        return done ? query : nil
    }
}

extension Array where Element: Equatable {
    fileprivate func ends(with suffix: [Element]) -> Bool {
        count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix
    }
}

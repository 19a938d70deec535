import Foundation

/// A server on 127.0.0.1 that accepts connections, reads each request, and never answers: the
/// network at its worst for a player that must still stop when told. `requests` yields the
/// request line of each request as it arrives, so a test acts on that event, not after a delay.
/// It closes everything on `stop()`, and with the test process.
public final class SilentServer: @unchecked Sendable {
    public let port: Int
    /// Each request's first line (`GET /x HTTP/1.1`), as it arrives.
    public let requests: AsyncStream<String>
    private let sink: AsyncStream<String>.Continuation
    private let listener: Int32
    private let lock = NSLock()
    private var connections: [Int32] = []
    private var stopped = false

    public init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestSupportError("silent server: socket failed") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound, listen(fd, 16) == 0 else {
            close(fd)
            throw TestSupportError("silent server: cannot listen")
        }
        listener = fd
        port = Int(UInt16(bigEndian: address.sin_port))
        (requests, sink) = AsyncStream.makeStream(of: String.self)
        let thread = Thread { [self] in acceptLoop() }
        thread.name = "silent-server"
        thread.start()
    }

    /// `http://127.0.0.1:PORT/`
    public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)/")! }

    /// Closes the listener and every connection, once: a test's `stop()` and then `deinit`
    /// closed the listener's number twice, and by the second close it could be another part's
    /// descriptor — a cache file a scan in the same test process was reading ("read failed:
    /// cache: Bad file descriptor", seen under stress).
    public func stop() {
        let open: [Int32]? = lock.withLock {
            guard !stopped else { return nil }
            stopped = true
            defer { connections = [] }
            return connections
        }
        guard let open else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        open.forEach { close($0) }
        sink.finish()
    }

    deinit { stop() }

    private func acceptLoop() {
        while true {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else {
                if errno == EINTR { continue }
                return
            }
            let keep = lock.withLock {
                if !stopped { connections.append(connection) }
                return !stopped
            }
            guard keep else {
                close(connection)
                return
            }
            let reader = Thread { [self] in readRequest(connection) }
            reader.start()
        }
    }

    /// Reads up to the end of the request head and says it arrived; the connection stays open,
    /// unanswered.
    private func readRequest(_ connection: Int32) {
        var head: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !head.ends(with: Array("\r\n\r\n".utf8)) {
            let count = read(connection, &buffer, buffer.count)
            guard count > 0 else { return }
            head += buffer[0..<count]
        }
        let line = String(decoding: head, as: UTF8.self).components(separatedBy: "\r\n").first ?? ""
        sink.yield(line)
    }
}

private extension Array where Element == UInt8 {
    func ends(with suffix: [UInt8]) -> Bool {
        count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix
    }
}

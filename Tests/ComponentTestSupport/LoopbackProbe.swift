import Base
import Glibc

/// A local process knocking on a login's loopback listener with real sockets: a connection that
/// sends nothing, and requests that are not the browser's (a favicon, a forged `state`).
package struct LoopbackProbe {
    package let port: Int

    package init(port: Int) {
        self.port = port
    }

    /// A connection to the listener, left open; the caller closes it.
    package func connect() throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard fd >= 0, connected == 0 else {
            close(fd)
            throw ProbeError.cannotConnect
        }
        return fd
    }

    /// `GET target` on a connection of its own, and the whole answer (read until the listener
    /// closes; 60 s at most, an upper bound that fails).
    package func ask(_ target: String) async throws -> String {
        let fd = try connect()
        defer { close(fd) }
        return try await BlockingPool.shared.run {
            var timeout = timeval(tv_sec: 60, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            let request = "GET \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n"
            _ = request.withCString { send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
            var answer = [UInt8]()
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = recv(fd, &buffer, buffer.count, 0)
                if count < 0 { throw ProbeError.noAnswer }
                if count == 0 { break }
                answer += buffer[0..<count]
            }
            return String(decoding: answer, as: UTF8.self)
        }
    }

    /// Whether the listener still holds `fd` open (nothing to read yet, no end).
    package static func isOpen(_ fd: Int32) -> Bool {
        var byte: UInt8 = 0
        return recv(fd, &byte, 1, Int32(MSG_DONTWAIT)) < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)
    }

    package enum ProbeError: Error {
        case cannotConnect
        case noAnswer
        case notIgnored(String, answer: String, silentOpen: Bool)
    }

    /// What a hostile local process does while a login waits: a connection that sends nothing
    /// (held open), then a favicon, a forged `code` with another `state`, one with no `state`, and
    /// an `error` with another `state` — each answered at once while the silent one is still open,
    /// and none ending the login. The silent connection is returned for the caller to close.
    package func knock() async throws -> Int32 {
        let silent = try connect()
        for target in ["/favicon.ico", "/?code=forged&state=another", "/?code=forged", "/?error=access_denied&state=another"] {
            let answer = try await ask(target)
            guard answer.hasPrefix("HTTP/1.1 200"), answer.contains("waiting"), Self.isOpen(silent) else {
                close(silent)
                throw ProbeError.notIgnored(target, answer: answer, silentOpen: Self.isOpen(silent))
            }
        }
        return silent
    }
}

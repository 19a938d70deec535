import Foundation
import Synchronization
import TestSupport

/// A plain MPD client over a socket, for what the real clients do not let a test do: send exact
/// bytes (junk, long lines), read answers line by line, hold a connection idle or unread.
/// Blocking calls with a receive timeout (a bound that fails the test, never a wait).
final class MPDSocketClient: @unchecked Sendable {
    let fd: Int32
    private var buffer: [UInt8] = []
    /// The greeting line.
    private(set) var greeting = ""

    /// Connects to 127.0.0.1:`port`; reads the greeting unless `greet` is false.
    init(port: Int, timeout: Int = 30, greet: Bool = true) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestSupportError("socket failed: errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        try Self.connect(fd, to: &address, naming: "127.0.0.1:\(port)")
        try setTimeout(timeout)
        if greet { greeting = try readLine() ?? "" }
    }

    /// Connects to a unix socket.
    init(path: String, timeout: Int = 30) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.prefix(raw.count - 1).enumerated() { raw[index] = byte }
        }
        try Self.connect(fd, to: &address, naming: path)
        try setTimeout(timeout)
        greeting = try readLine() ?? ""
    }

    /// Connects `fd` to a `sockaddr_in` or `sockaddr_un`; throws if that fails (deinit closes it).
    private static func connect<Address>(_ fd: Int32, to address: inout Address, naming name: String) throws {
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<Address>.size)) == 0 }
        }
        guard connected else {
            throw TestSupportError("cannot connect to \(name): errno \(errno)")
        }
    }

    private let open = Mutex(true)

    deinit { if open.withLock({ $0 }) { close(fd) } }

    /// Closes with a reset, as the kernel closes a connection whose answers were never read
    /// (a client killed, or one that sent and did not wait).
    func abort() {
        var abortive = linger(l_onoff: 1, l_linger: 0)
        setsockopt(fd, SOL_SOCKET, SO_LINGER, &abortive, socklen_t(MemoryLayout<linger>.size))
        open.withLock { open in
            if open { close(fd) }
            open = false
        }
    }

    private func setTimeout(_ seconds: Int) throws {
        var time = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Sends bytes as they are; false if the server has closed.
    @discardableResult
    func send(bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if count <= 0 { return false }
            sent += count
        }
        return true
    }

    @discardableResult
    func send(_ line: String) -> Bool { send(bytes: Array((line + "\n").utf8)) }

    /// Sends what the socket takes now without waiting; false once it takes nothing more (the
    /// server stopped reading: its answers to us are not being read either).
    func sendWithoutWaiting(_ line: String) -> Bool {
        let bytes = Array((line + "\n").utf8)
        let count = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
        return count > 0
    }

    /// The next line; nil when the server closed. Throws when nothing came within the timeout.
    func readLine() throws -> String? {
        while true {
            if let newline = buffer.firstIndex(of: 0x0A) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return line
            }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let count = recv(fd, &chunk, chunk.count, 0)
            if count == 0 { return nil }
            if count < 0 {
                if errno == EAGAIN || errno == EWOULDBLOCK { throw TestSupportError("no answer within the timeout") }
                return nil
            }
            buffer.append(contentsOf: chunk[..<count])
        }
    }

    /// The lines of one answer, through its `OK` or `ACK` line (included); what came before
    /// the server closed, if it did.
    func readAnswer() throws -> [String] {
        var lines: [String] = []
        while let line = try readLine() {
            lines.append(line)
            if line == "OK" || line.hasPrefix("ACK ") { break }
        }
        return lines
    }

    /// Sends a command and reads its answer.
    func command(_ line: String) throws -> [String] {
        send(line)
        return try readAnswer()
    }

    /// An answer's `key: value` lines as pairs, in order.
    static func fields(_ lines: [String]) -> [(key: String, value: String)] {
        lines.compactMap { line in
            guard let colon = line.range(of: ": ") else { return nil }
            return (String(line[..<colon.lowerBound]), String(line[colon.upperBound...]))
        }
    }

    /// The value of `key` in an answer.
    static func value(_ key: String, in lines: [String]) -> String? {
        fields(lines).first { $0.key == key }?.value
    }

    /// Whether the server has closed the connection (a read returns end of file).
    func isClosed() throws -> Bool {
        try readLine() == nil
    }
}

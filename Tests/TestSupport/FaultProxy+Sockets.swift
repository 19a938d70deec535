import Foundation

/// The proxy's socket work: addresses, whole sends, a request body relayed, a hard drop.
extension FaultProxy {
    static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

    static func send(_ fd: Int32, _ text: String) -> Bool { send(fd, Array(text.utf8)) }

    static func send(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + done, bytes.count - done, Int32(MSG_NOSIGNAL)) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return false }
            done += n
        }
        return true
    }

    /// Passes a request body on: what arrived with the head, then the rest.
    static func relay(_ leftover: [UInt8], _ length: Int?, from source: Int32, to target: Int32) -> Bool {
        guard send(target, leftover) else { return false }
        var remaining = (length ?? 0) - leftover.count
        var buffer = [UInt8](repeating: 0, count: 16384)
        while remaining > 0 {
            let n = buffer.withUnsafeMutableBytes { recv(source, $0.baseAddress, min($0.count, remaining), 0) }
            guard n > 0, send(target, Array(buffer[0..<n])) else { return false }
            remaining -= n
        }
        return true
    }

    /// Drops a connection hard (RST), as a failing network does.
    static func abort(_ fd: Int32) {
        var hard = linger(l_onoff: 1, l_linger: 0)
        setsockopt(fd, SOL_SOCKET, SO_LINGER, &hard, socklen_t(MemoryLayout<linger>.size))
    }
}

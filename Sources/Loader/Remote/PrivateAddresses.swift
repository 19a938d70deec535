import Base
import Config
import FoundationEssentials
import Glibc
import Model

/// The addresses a link named by a remote document may not reach: this machine (loopback
/// 127/8, ::1, 0/8, `localhost`), its networks (private 10/8, 172.16/12, 192.168/16, 100.64/10,
/// fc00::/7), link-local ones (169.254/16 — the cloud metadata service 169.254.169.254 —
/// fe80::/10) and multicast. A host name is resolved first (on the `BlockingPool`) and refused
/// when any of its addresses is one of these: a name that resolves to 127.0.0.1 is the same
/// attack as the literal, and so are the spellings the resolver reads as IPv4 (`2130706433`,
/// `0x7f.1`) and IPv4-mapped IPv6 (`::ffff:127.0.0.1`).
///
/// The check is made before each request and each redirect it follows; libcurl resolves the name
/// again when it connects, so the address it connected to is checked too, before the request is
/// sent (`CurlTransfer`): a name whose answer changes in between (DNS rebinding with a zero TTL)
/// is refused as well. Through a proxy the connection is the proxy's, and only the name is checked.
package enum PrivateAddresses {
    /// Throws `LoaderError.privateLink` when `url`'s host is or resolves to such an address;
    /// true when it was checked here, so the address a connection reaches must pass too.
    /// A name this machine cannot resolve passes (false) when `proxy` reaches `url` through a proxy: the
    /// proxy resolves it (SOCKS5 and `CONNECT` send the name), as on a network whose only way out
    /// is the proxy, with no DNS of its own; this machine's loopback and networks are then not
    /// where the name leads from here.
    @discardableResult
    package static func refuse(_ url: URL, proxy: ProxyRules = .direct) async throws -> Bool {
        guard var host = url.host(percentEncoded: false)?.lowercased(), !host.isEmpty else { return false }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if host == "localhost" || host.hasSuffix(".localhost") || host == "localhost." {
            throw LoaderError.privateLink(host: host, kind: "loopback")
        }
        let name = host
        let kind: String?
        do {
            kind = try await BlockingPool.shared.run { try kindOfAddresses(of: name) }
        } catch LoaderError.unreachable(_) where (try? proxy.proxy(for: url)) != nil {
            return false
        }
        if let kind { throw LoaderError.privateLink(host: host, kind: kind) }
        return true
    }

    /// What the address libcurl connected to is (`10.0.0.1`, `::1`), if it may not be reached.
    static func kind(ofAddress text: String) -> String? {
        var ipv4 = in_addr()
        if inet_pton(AF_INET, text, &ipv4) == 1 { return kind(ofIPv4: UInt32(bigEndian: ipv4.s_addr)) }
        var ipv6 = in6_addr()
        if inet_pton(AF_INET6, text, &ipv6) == 1 { return withUnsafeBytes(of: ipv6) { kind(ofIPv6: Array($0)) } }
        return "unknown"
    }

    /// The kind of the first address of `host` that may not be reached; nil when all may.
    static func kindOfAddresses(of host: String) throws -> String? {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, nil, &hints, &list)
        guard status == 0 else {
            throw LoaderError.unreachable("cannot resolve the host: \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(list) }
        var entry = list
        while let info = entry?.pointee {
            entry = info.ai_next
            guard let address = info.ai_addr else { continue }
            var kind: String?
            switch Int32(address.pointee.sa_family) {
            case AF_INET:
                kind = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { ipv4 in
                    Self.kind(ofIPv4: UInt32(bigEndian: ipv4.pointee.sin_addr.s_addr))
                }
            case AF_INET6:
                kind = address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { ipv6 in
                    withUnsafeBytes(of: ipv6.pointee.sin6_addr) { Self.kind(ofIPv6: Array($0)) }
                }
            default: continue
            }
            if let kind { return kind }
        }
        return nil
    }

    /// What an IPv4 address (in host order) is, if it is one that may not be reached.
    static func kind(ofIPv4 address: UInt32) -> String? {
        let (a, b) = (address >> 24, (address >> 16) & 0xFF)
        switch (a, b) {
        case (127, _): return "loopback"
        case (0, _): return "unspecified (this machine)"
        case (10, _), (172, 16...31), (192, 168), (100, 64...127): return "private"
        case (169, 254): return "link-local"
        case (224...255, _): return "multicast or reserved"
        default: return nil
        }
    }

    /// What an IPv6 address (16 bytes) is, if it is one that may not be reached.
    static func kind(ofIPv6 bytes: [UInt8]) -> String? {
        guard bytes.count == 16 else { return "unknown" }
        if bytes[0..<15].allSatisfy({ $0 == 0 }) { return bytes[15] == 1 ? "loopback" : bytes[15] == 0 ? "unspecified (this machine)" : nil }
        if bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF {
            return kind(ofIPv4: bytes[12..<16].reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
        }
        if bytes[0] & 0xFE == 0xFC { return "private" }
        if bytes[0] == 0xFE, bytes[1] & 0xC0 == 0x80 { return "link-local" }
        if bytes[0] == 0xFF { return "multicast" }
        return nil
    }
}

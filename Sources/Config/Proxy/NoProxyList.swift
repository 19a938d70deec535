import Base
import Glibc

/// `no_proxy` as curl reads it (CURLOPT_NOPROXY, curl ≥ 7.86): hosts separated by commas (or
/// spaces); `*` alone means every host; a name matches itself and every name under it
/// (`example.com` and `.example.com` both match `example.com` and `www.example.com`, never
/// `notexample.com`); an IP address matches that address only, or a network written in CIDR
/// (`192.168.0.0/16`, `fd00::/8`); IPv6 with or without brackets. Names are never resolved to
/// match an address entry, and the URL's port plays no part (an entry with a port matches nothing,
/// as in curl). A pure value, so that every rule has a unit test.
package struct NoProxyList: Sendable, Equatable {
    enum Entry: Sendable, Equatable {
        case domain(String)
        case network(address: [UInt8], bits: Int)
    }

    private(set) var everything = false
    private(set) var entries: [Entry] = []

    package init(_ text: String = "") {
        let value = text.trimmingWhitespace()
        if value == "*" {
            everything = true
            return
        }
        for token in value.split(whereSeparator: { $0 == "," || $0 == " " || $0 == "\t" }) {
            var name = token.lowercased()
            if name.hasPrefix("[") {
                // `[::1]` or `[::1]/64`: the brackets are not part of the address.
                name.removeFirst()
                name.removeAll { $0 == "]" }
            }
            if let network = Self.network(name) {
                entries.append(network)
                continue
            }
            if name.hasPrefix(".") { name.removeFirst() }
            if name.hasSuffix(".") { name.removeLast() }
            if !name.isEmpty { entries.append(.domain(name)) }
        }
    }

    /// Whether `host` (a URL's host: a name, an IPv4 address or an IPv6 one, bracketed or not)
    /// is reached without a proxy.
    package func excludes(host: String) -> Bool {
        if everything { return true }
        var name = host.lowercased()
        if name.hasPrefix("[") && name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
        if name.hasSuffix(".") { name.removeLast() }
        if let address = Self.address(name) {
            return entries.contains { entry in
                guard case .network(let network, let bits) = entry, network.count == address.count else { return false }
                return Self.prefix(address, network, bits: bits)
            }
        }
        return entries.contains { entry in
            guard case .domain(let domain) = entry else { return false }
            return name == domain || name.hasSuffix("." + domain)
        }
    }

    /// An address entry, with its prefix length (all its bits when none is written).
    private static func network(_ text: String) -> Entry? {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let address = address(String(parts[0])) else { return nil }
        var bits = address.count * 8
        if parts.count == 2 {
            guard let written = Int(parts[1]), (0...bits).contains(written) else { return nil }
            bits = written
        }
        return .network(address: address, bits: bits)
    }

    /// The bytes of an IPv4 or IPv6 address written as text; nil for a name.
    static func address(_ text: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 { return withUnsafeBytes(of: &v6) { Array($0) } }
        return nil
    }

    private static func prefix(_ address: [UInt8], _ network: [UInt8], bits: Int) -> Bool {
        for index in 0..<address.count {
            let remaining = bits - index * 8
            if remaining <= 0 { return true }
            let mask: UInt8 = remaining >= 8 ? 0xFF : ~(UInt8(0xFF) >> UInt8(remaining))
            if address[index] & mask != network[index] & mask { return false }
        }
        return true
    }
}

import FoundationEssentials
import Glibc

/// The kernel's TCP table as `/proc/net/tcp` and `/proc/net/tcp6` print it, read where netlink
/// is refused (a sandbox that allows no `AF_NETLINK`). A row is `sl local rem st queues tr
/// retrnsmt uid …`; an address is the 32-bit words of the address as the kernel stores them,
/// each printed `%08X` as this machine reads a word (`0100007F:1F90` is 127.0.0.1:8080 on a
/// little-endian machine), the port `%04X`. Slower than netlink (a walk of every row), so only
/// the fallback.
enum MPDProcTCPTable {
    static func owner(of socket: MPDPeerLookup.Endpoint, connectedTo peer: MPDPeerLookup.Endpoint) -> MPDPeerLookup.TableAnswer {
        guard let rows = rows(family: socket.family) else { return .unreadable }
        let (local, remote) = (text(of: socket), text(of: peer))
        for row in rows where row.count > 7 && row[1] == local && row[2] == remote {
            return UInt32(row[7]).map { .found($0) } ?? .unreadable
        }
        return .absent
    }

    /// The owner of a socket listening (state `0A`) on `port`.
    static func listenerOwner(port: Int, family: Int32) -> UInt32? {
        let suffix = ":" + hex(UInt32(port), width: 4)
        for row in rows(family: family) ?? [] where row.count > 7 && row[3] == "0A" && row[1].hasSuffix(suffix) {
            return UInt32(row[7])
        }
        return nil
    }

    /// The table's rows, each split at its spaces; nil if it cannot be read.
    private static func rows(family: Int32) -> [[Substring]]? {
        let path = family == AF_INET ? "/proc/net/tcp" : "/proc/net/tcp6"
        // A file of /proc has no size: read until the end.
        guard let file = fopen(path, "r") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = fread(&chunk, 1, chunk.count, file)
            if count <= 0 { break }
            bytes.append(contentsOf: chunk[..<count])
        }
        let text = String(decoding: bytes, as: UTF8.self)
        return text.split(separator: "\n").dropFirst().map { $0.split(separator: " ") }
    }

    /// An endpoint as the table prints it.
    private static func text(of endpoint: MPDPeerLookup.Endpoint) -> String {
        var words = ""
        for start in stride(from: 0, to: endpoint.bytes.count, by: 4) {
            let word = endpoint.bytes[start..<start + 4].withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }
            words += hex(word, width: 8)
        }
        return words + ":" + hex(UInt32(endpoint.port), width: 4)
    }

    private static func hex(_ value: UInt32, width: Int) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}

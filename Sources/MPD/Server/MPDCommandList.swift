/// The lines of a command list being received (`command_list_begin` … `command_list_end`), kept
/// as they came: one buffer of the lines, each with its newline. What it holds is what
/// `max_command_list_size` counts — as an array of arrays a one-letter line cost ~56 bytes, and
/// 2 MiB of them held 56 MB for one connection before it was let in to anything. The buffer
/// grows by doubling up to the limit, never past it.
struct MPDCommandList {
    /// `command_list_ok_begin`: `list_OK` after each command.
    let saysEach: Bool
    private var bytes: [UInt8] = []
    private(set) var count = 0

    init(saysEach: Bool) {
        self.saysEach = saysEach
    }

    /// Bytes kept.
    var size: Int { bytes.count }

    /// Keeps `line`; false (and keeps nothing) when that would make the list larger than `limit`.
    mutating func append(_ line: some Collection<UInt8>, limit: Int) -> Bool {
        let needed = bytes.count + line.count + 1
        guard needed <= limit else { return false }
        if needed > bytes.capacity { bytes.reserveCapacity(min(max(needed, bytes.capacity * 2), limit)) }
        bytes.append(contentsOf: line)
        bytes.append(0x0A)
        count += 1
        return true
    }

    /// The lines in order, without their newlines, found one at a time.
    var lines: Lines { Lines(bytes: bytes) }

    struct Lines: Sequence, IteratorProtocol {
        let bytes: [UInt8]
        private var start = 0

        init(bytes: [UInt8]) {
            self.bytes = bytes
        }

        mutating func next() -> ArraySlice<UInt8>? {
            guard start < bytes.count, let end = bytes[start...].firstIndex(of: 0x0A) else { return nil }
            defer { start = end + 1 }
            return bytes[start..<end]
        }
    }
}

/// The answer a command writes: `key: value` lines and binary chunks, in MPD's wire format.
/// The connection ends it with `OK` (or `list_OK` inside `command_list_ok_begin`), or an `ACK`.
///
/// A long answer (a whole database listing) need not be held at once: a handler calls `flush()`
/// now and then, which hands what is written so far to the connection and waits until the
/// client has taken it (the socket's back-pressure), so memory stays bounded however large the
/// answer is.
package struct MPDResponse: Sendable {
    /// Hands written bytes to the client and returns once they may be dropped here.
    package typealias Sink = @Sendable ([UInt8]) async throws -> Void

    package private(set) var bytes: [UInt8] = []
    private let sink: Sink?
    /// The size from which `flushIfLarge()` flushes.
    package static let flushSize = 64 * 1024

    package init(sink: Sink? = nil) {
        self.sink = sink
        bytes.reserveCapacity(512)
    }

    /// `key: value`; a newline in the value would start a line of its own, so it becomes a space.
    package mutating func field(_ key: String, _ value: String) {
        bytes.append(contentsOf: key.utf8)
        bytes.append(contentsOf: ": ".utf8)
        // Copied whole (one copy of the bytes), then mended in place: an append per byte checked
        // the array's room for each.
        let start = bytes.count
        bytes.append(contentsOf: value.utf8)
        for index in start..<bytes.count where bytes[index] == 0x0A || bytes[index] == 0x0D { bytes[index] = 0x20 }
        bytes.append(0x0A)
    }

    package mutating func field(_ key: String, _ value: some BinaryInteger) {
        field(key, String(value))
    }

    /// A value in seconds with MPD's three decimals (`elapsed`, `duration`).
    package mutating func field(_ key: String, seconds: Double) {
        field(key, Self.seconds(seconds))
    }

    /// `binary: N`, the bytes, and a newline (`albumart`, `readpicture`).
    package mutating func binary(_ data: some Collection<UInt8>) {
        field("binary", data.count)
        bytes.append(contentsOf: data)
        bytes.append(0x0A)
    }

    /// A line as it is (`list_OK`, `OK MPD ...`), newline added.
    package mutating func line(_ text: String) {
        bytes.append(contentsOf: text.utf8)
        bytes.append(0x0A)
    }

    /// Bytes written already in the wire format (a song from `MPDSongCatalog`).
    package mutating func append(contentsOf written: ArraySlice<UInt8>) {
        bytes.append(contentsOf: written)
    }

    /// Another answer's bytes, after these.
    package mutating func append(_ other: MPDResponse) {
        bytes.append(contentsOf: other.bytes)
    }

    /// Hands what is written so far to the client (see the type's comment); without a sink
    /// (tests, a buffered answer) it is kept.
    package mutating func flush() async throws {
        guard let sink, !bytes.isEmpty else { return }
        let chunk = bytes
        bytes.removeAll(keepingCapacity: true)
        try await sink(chunk)
    }

    /// `flush()` once at least `flushSize` bytes are waiting: for a handler's loop over many songs.
    package mutating func flushIfLarge() async throws {
        if bytes.count >= Self.flushSize { try await flush() }
    }

    /// Takes the written bytes out (the connection, at the end of a command).
    package mutating func take() -> [UInt8] {
        defer { bytes.removeAll(keepingCapacity: true) }
        return bytes
    }

    /// Seconds as MPD writes them: three decimals, a dot whatever the locale.
    package static func seconds(_ value: Double) -> String {
        let millis = Int64((max(0, value.isFinite ? value : 0) * 1000).rounded())
        let fraction = String(millis % 1000)
        return "\(millis / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }
}

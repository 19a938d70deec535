import Foundation
import Model
import TestSupport

extension ByteSource {
    /// All its bytes, read in 64 KiB pieces on a thread of its own (reads wait for the network).
    package func readWhole() async throws -> Data {
        try await onOwnThread {
            var data = Data()
            while true {
                let bytes = try self.readBytes(at: Int64(data.count), count: 65_536)
                if bytes.isEmpty { return data }
                data.append(contentsOf: bytes)
            }
        }
    }
}

extension ByteSource {
    /// `count` bytes at `offset`, read on a thread of its own (a read waits for the network).
    package func read(at offset: Int, count: Int) async throws -> [UInt8] {
        try await onOwnThread { try self.readBytes(at: Int64(offset), count: count) }
    }
}

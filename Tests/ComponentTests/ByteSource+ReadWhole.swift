import Foundation
import Model
import TestSupport

extension ByteSource {
    /// All its bytes, read in 64 KiB pieces on a thread of its own (reads wait for the network).
    func readWhole() async throws -> Data {
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

import Foundation
import Loader
import Testing
import TestSupport

/// The transport's read timeout against a real WebDAV server (rclone) behind the fault proxy.
@Suite(.timeLimit(.minutes(2)))
struct HTTPTransportTests {
    /// Larger than what the socket buffers and the HTTP client hold: the silence comes mid-answer.
    private static let size = 24 << 20

    private func transport(_ rig: StreamingRig, readTimeout: Double) throws -> HTTPTransport {
        let basic = Data("\(rig.server.username):\(rig.server.password)".utf8).base64EncodedString()
        return try HTTPTransport(name: "dav", readTimeout: readTimeout) { _ in ["Authorization": "Basic \(basic)"] }
    }

    private func publishBig(_ rig: StreamingRig) throws -> URL {
        var bytes = [UInt8](repeating: 0, count: Self.size)
        for index in stride(from: 0, to: bytes.count, by: 4096) { bytes[index] = UInt8(truncatingIfNeeded: index >> 12) }
        try Data(bytes).write(to: rig.server.root.appendingPathComponent("big.bin"))
        return rig.proxy.baseURL.appendingPathComponent("big.bin")
    }

    @Test("a server that stops sending in the middle of an answer: the reader's wait ends after the read timeout")
    func silentServerTimesOut() async throws {
        let rig = try await StreamingRig([])
        let url = try publishBig(rig)
        let transport = try transport(rig, readTimeout: 1)
        rig.proxy.inject(.stall(afterBytes: 100_000, seconds: 10))
        let response = try await transport.send(url, method: .GET)
        var received = 0
        let error = await #expect(throws: (any Error).self) {
            for try await buffer in response.body { received += buffer.readableBytes }
        }
        await transport.shutdown()
        #expect(HTTPTransport.loaderError(try #require(error)) == .network("the server stopped sending"))
        #expect(received >= 100_000 && received < Self.size, "every byte sent before the silence was read: \(received)")
    }
}

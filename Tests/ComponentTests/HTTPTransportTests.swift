import Foundation
import Loader
import Model
import Testing
import TestSupport

/// The transport's read timeout against a real WebDAV server (rclone) behind the fault proxy:
/// it is the server's silence that counts, never the reader's own pace.
@Suite(.timeLimit(.minutes(2)))
struct HTTPTransportTests {
    /// Larger than what the socket buffers and the transport hold, so that a reader who stops
    /// taking bytes makes the transport stop reading, and the server stop sending.
    private static let size = 24 << 20

    private func transport(_ rig: StreamingRig, readTimeout: Double) throws -> HTTPTransport {
        let basic = Data("\(rig.server.username):\(rig.server.password)".utf8).base64EncodedString()
        return try HTTPTransport(name: "dav", readTimeout: readTimeout, proxy: .direct) { _ in ["Authorization": "Basic \(basic)"] }
    }

    private func publishBig(_ rig: StreamingRig) throws -> URL {
        var bytes = [UInt8](repeating: 0, count: Self.size)
        for index in stride(from: 0, to: bytes.count, by: 4096) { bytes[index] = UInt8(truncatingIfNeeded: index >> 12) }
        try Data(bytes).write(to: rig.server.root.appendingPathComponent("big.bin"))
        return rig.proxy.baseURL.appendingPathComponent("big.bin")
    }

    @Test("a reader held up three times the read timeout (a busy disk) still reads the answer whole, from one request")
    func slowReaderIsNoTimeout() async throws {
        let rig = try await StreamingRig([])
        let url = try publishBig(rig)
        let transport = try transport(rig, readTimeout: 1)
        let response = try await transport.send(url, method: .GET)
        #expect(response.status.code == 200)
        var received = 0
        var heldUp = false
        let silent = try SilentServer()
        defer { silent.stop() }
        let silentURL = try #require(URL(string: "http://127.0.0.1:\(silent.port)/x"))
        for try await buffer in response.body {
            received += buffer.readableBytes
            if !heldUp {
                heldUp = true
                // The reader takes no bytes while the server has more to send, until three
                // requests of the same transport to a server that never answers have timed out:
                // three read timeouts by the transport's own clock, however loaded the machine.
                for _ in 0..<3 {
                    await #expect(throws: (any Error).self) { _ = try await transport.send(silentURL, method: .GET) }
                }
            }
        }
        await transport.shutdown()
        #expect(received == Self.size)
        #expect(rig.proxy.log.filter { $0.method == "GET" }.count == 1)
    }

    @Test("a server that stops sending in the middle of an answer: the reader's wait ends with the read timeout")
    func silentServerTimesOut() async throws {
        let rig = try await StreamingRig([])
        let url = try publishBig(rig)
        let transport = try transport(rig, readTimeout: 1)
        rig.proxy.inject(.stall(afterBytes: 100_000, seconds: 30))
        let response = try await transport.send(url, method: .GET)
        var received = 0
        let error = await #expect(throws: (any Error).self) {
            for try await buffer in response.body { received += buffer.readableBytes }
        }
        await transport.shutdown()
        #expect(HTTPTransport.loaderError(try #require(error)) == .network("the server stopped sending"))
        #expect(received >= 100_000 && received < Self.size, "every byte sent before the silence was read: \(received)")
    }

    @Test("a server that takes the request and never answers: the request fails with the read timeout")
    func unansweredRequestTimesOut() async throws {
        let server = try SilentServer()
        defer { server.stop() }
        let transport = try HTTPTransport(name: "web", readTimeout: 1, proxy: .direct)
        let error = await #expect(throws: LoaderError.self) {
            _ = try await transport.send(try #require(URL(string: "http://127.0.0.1:\(server.port)/x")), method: .GET)
        }
        await transport.shutdown()
        #expect(error == .network("the server stopped sending"))
    }

    @Test("a reader that leaves in the middle of an answer closes its connection: the server sends no more")
    func leavingReaderCloses() async throws {
        let rig = try await StreamingRig([])
        let url = try publishBig(rig)
        let transport = try transport(rig, readTimeout: 10)
        do {
            let response = try await transport.send(url, method: .GET)
            for try await buffer in response.body where buffer.readableBytes > 0 { break }
        }
        // The proxy logs an exchange once its answer has ended: here, once the connection closed.
        let ended = try await eventually { rig.proxy.log.contains { $0.method == "GET" } }
        #expect(ended, "the answer never ended")
        await transport.shutdown()
        #expect(try #require(rig.proxy.log.first { $0.method == "GET" }).bodyBytes < Self.size / 2)
    }
}

import ComponentTestSupport
import Glibc
import Model
import SourceTypes
import Testing

/// The login's loopback listener against local processes that are not the browser (issue 27),
/// with real sockets: none of them stalls or ends the login, and the wait has a bound.
struct LoopbackListenerTests {
    @Test("a silent connection, a favicon, forged or missing states are answered and ignored; the right request ends the wait")
    func ignoresOthers() async throws {
        let listener = try LoopbackListener()
        async let query = listener.awaitRedirect(state: "right-state", timeout: 300)
        let probe = LoopbackProbe(port: listener.port)
        let silent = try await probe.knock()
        defer { close(silent) }
        let answer = try await probe.ask("/?code=good&state=right-state")
        #expect(answer.contains("login received"), "\(answer)")
        #expect(try await query["code"] == "good")
    }

    @Test("with no browser coming back (a connection that sends nothing), the wait ends with one clear error at its bound")
    func bounded() async throws {
        let listener = try LoopbackListener()
        let silent = try LoopbackProbe(port: listener.port).connect()
        defer { close(silent) }
        await #expect {
            _ = try await listener.awaitRedirect(state: "s", timeout: 1)
        } throws: { error in
            "\(error)".contains("no browser came back to the login")
        }
    }
}

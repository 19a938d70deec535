import Foundation
import Testing
import TestSupport

/// libcurl and the libraries it brings (OpenSSL, GnuTLS, Kerberos, LDAP…) are 5–6 MiB of RSS:
/// loaded by the daemon's first HTTP request, never by a daemon that asks no server anything.
@Suite(.timeLimit(.minutes(2))) struct LibcurlLoadTests {
    /// Whether the daemon has libcurl mapped; its maps read whole, and known to be read (they
    /// name libc).
    private func mapsLibcurl(_ rig: DaemonRig) throws -> Bool {
        let maps = ProcFile.read("/proc/\(rig.daemon.pid)/maps")
        try #require(maps.contains("/libc.so"), "the daemon's maps were not read: \(maps.prefix(200))")
        return maps.contains("/libcurl.so")
    }

    @Test("the started daemon has no libcurl in its memory; a station opened, it has")
    func loadedByFirstRequest() async throws {
        var options = ICYStreamServer.Options()
        options.pace = .times(8)
        options.titles = [.init(at: 0, "An Artist - A Song")]
        let server = try await ICYStreamServer(file: try await RadioFixtures.shared.url(.station), options: options)
        let rig = try await DaemonRig.start()
        defer { Task { await rig.stop() } }
        #expect(try !mapsLibcurl(rig), "libcurl was loaded at start")
        let opened = try await rig.bus.run("playerctl", ["-p", "cloudplayerd", "open", server.url.absoluteString])
        #expect(opened.status == 0, "\(opened.stderr)")
        #expect(try await rig.waitForTitle("A Song"), "\(rig.daemon.errorSoFar())")
        #expect(try mapsLibcurl(rig), "the station played without libcurl")
    }
}
